// Small progressive enhancements; every page works without JavaScript.
document.addEventListener("htmx:responseError", function (event) {
  var target = document.getElementById("htmx-error");
  if (target) {
    target.textContent = event.detail.xhr.statusText || "Error";
  }
});
// A dialog's Cancel or Close button removes the dialog htmx put in the page (a data attribute,
// not an hx-on handler: the site's Content-Security-Policy allows no inline code).
document.addEventListener("click", function (event) {
  var button = event.target.closest("[data-dialog-close]");
  var dialog = button && button.closest("dialog");
  if (dialog) {
    dialog.remove();
  }
});
