// The navigation menu is a <details> element and works without JavaScript; this only lets
// Escape close it and give the focus back to its button.
document.addEventListener("keydown", function (event) {
  if (event.key !== "Escape") {
    return;
  }
  var menu = document.querySelector(".site-menu[open]");
  if (menu) {
    menu.open = false;
    menu.querySelector("summary").focus();
  }
});
