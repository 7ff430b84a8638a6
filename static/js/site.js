// Small progressive enhancements; every page works without JavaScript.
document.addEventListener("htmx:responseError", function (event) {
  var target = document.getElementById("htmx-error");
  if (target) {
    target.textContent = event.detail.xhr.statusText || "Error";
  }
});
