// The print page's "Print" button (no inline handler: the site's Content-Security-Policy).
document.addEventListener("click", function (event) {
  if (event.target.closest("[data-print]")) {
    window.print();
  }
});
