// Fill the calculator's attacker or defender profile from one of the user's fighters.
document.addEventListener("change", function (event) {
  var select = event.target.closest("select[data-fill]");
  if (!select) return;
  var option = select.options[select.selectedIndex];
  if (!option || !option.value) return;
  var profile = option.dataset;
  var prefix = select.dataset.fill;
  var fields = prefix === "a" ? ["ws", "bs", "s", "a"] : ["ws", "t", "w", "s"];
  fields.forEach(function (key) {
    var input = document.querySelector("[name=" + prefix + "_" + key + "]");
    if (input && profile[key] !== undefined) input.value = profile[key];
  });
  if (prefix === "d") {
    // His armour and parry come with him (from what he carries).
    var save = document.querySelector("[name=d_armour_save]");
    if (save && profile.armour_save !== undefined) save.value = profile.armour_save;
    var parry = document.querySelector("[name=d_parry]");
    if (parry && profile.parry !== undefined) parry.value = profile.parry;
    var helmet = document.querySelector("[name=d_helmet]");
    if (helmet && profile.helmet !== undefined) helmet.checked = profile.helmet === "1";
  }
});
