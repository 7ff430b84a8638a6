"""The catalogue: content packs and what they define (races, warband and fighter types,
equipment and its lists, skills, special rules).

Rows are keyed by ``slug`` (unique across packs: a league's pack that reuses a slug overrides
that row); ``pack`` records which pack last wrote it. Organisers may edit every value in the
admin; ``load_content`` only rewrites a row when its pack file changes.
"""

from django.conf import settings as django_settings
from django.db import models
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from rules.engine.profile import CHARACTERISTICS, FIELDS
from rules.engine.profile import SPANISH_NAMES as SPANISH_NAMES  # re-exported

# The engine's profile is the one source: its fields, and the rulebook's Spanish names for them.
PROFILE_FIELDS = FIELDS
CHARACTERISTIC_FIELDS = CHARACTERISTICS
# The profile's column headers in the reader's language (HA/HP/F/R/H/L in Spanish).
PROFILE_HEADERS = {
    "m": pgettext_lazy("profile", "M"),
    "ws": pgettext_lazy("profile", "WS"),
    "bs": pgettext_lazy("profile", "BS"),
    "s": pgettext_lazy("profile", "S"),
    "t": pgettext_lazy("profile", "T"),
    "w": pgettext_lazy("profile", "W"),
    "i": pgettext_lazy("profile", "I"),
    "a": pgettext_lazy("profile", "A"),
    "ld": pgettext_lazy("profile", "Ld"),
}


class ContentPack(models.Model):
    slug = models.SlugField(_("slug"), unique=True)
    name = models.CharField(_("name"), max_length=120)
    description = models.TextField(_("description"), blank=True)
    declared_version = models.CharField(
        _("declared version"), max_length=40, blank=True, help_text=_("As written in pack.yaml.")
    )
    version = models.PositiveIntegerField(
        _("revision"), default=1, help_text=_("Bumped every time the pack's files change.")
    )
    content_hash = models.CharField(_("content hash"), max_length=64, blank=True)
    settings = models.JSONField(
        _("settings"),
        default=dict,
        blank=True,
        help_text=_("Campaign data: advance thresholds, rating points per warrior, etc."),
    )
    source = models.CharField(_("source folder"), max_length=500, blank=True)
    loaded_at = models.DateTimeField(_("loaded at"), null=True, blank=True)

    class Visibility(models.TextChoices):
        PRIVATE = "private", _("private")
        UNLISTED = "unlisted", _("unlisted (with the link)")
        PUBLIC = "public", _("public")

    # An organiser's pack (``warbands.packs``): edited as a draft, published as versions. The
    # default pack (loaded from ``warbands/content/``) has no owner: content editors keep it.
    owner = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="content_packs",
        verbose_name=_("owner"),
    )
    visibility = models.CharField(
        _("visibility"), max_length=10, choices=Visibility.choices, default=Visibility.PRIVATE
    )
    credit = models.CharField(
        _("source and credit"),
        max_length=300,
        blank=True,
        help_text=_('Where its lists come from, e.g. "Annúminas v3.0".'),
    )
    created_at = models.DateTimeField(_("created"), null=True, blank=True, auto_now_add=True)

    class Meta:
        verbose_name = _("content pack")
        verbose_name_plural = _("content packs")
        ordering = ["slug"]
        # Importing rewrites every league's catalogue: its own permission, held by the
        # "Content editors" group (``warbands.content_editors``) and superusers, never given by
        # organising.
        permissions = [("import_contentpack", _("Can import a content pack"))]

    def __str__(self) -> str:
        return f"{self.name} (r{self.version})"


def translated(text: str, translations: dict | None, field: str) -> str:
    """``text`` (as the pack wrote it, in Spanish) in the reader's active language, when the
    row's ``translations`` carry it (``{"en": {"name": …, "description": …}}``); otherwise the
    pack's own text. Also for rows read with ``values_list(…, "translations")``."""
    language = (get_language() or "").split("-")[0].lower()
    entry = translations.get(language) if language and isinstance(translations, dict) else None
    value = entry.get(field) if isinstance(entry, dict) else None
    return value if isinstance(value, str) and value.strip() else text


def version_prefix(version_id: int) -> str:
    return f"v{version_id}-"


def local_slug(slug: str, version_id: int | None) -> str:
    """``slug`` without its pack version's prefix (a default catalogue row's slug as it is)."""
    return slug.removeprefix(version_prefix(version_id)) if version_id else slug


class CatalogueRow(models.Model):
    pack = models.ForeignKey(
        ContentPack, on_delete=models.PROTECT, related_name="+", verbose_name=_("content pack")
    )
    slug = models.SlugField(_("slug"), unique=True, max_length=80)
    name = models.CharField(_("name"), max_length=120)
    description = models.TextField(_("description"), blank=True)
    translations = models.JSONField(
        _("translations"),
        default=dict,
        blank=True,
        help_text=_(
            'The name and description in other languages, e.g. {"en": {"name": "Sword", '
            '"description": "Parry."}}; a language left out reads the Spanish.'
        ),
    )
    # Empty: the default catalogue. Set: a row of an organiser's published pack version, whose
    # slug is the pack's own prefixed with ``v<version id>-`` (``local_slug`` gives it back).
    pack_version = models.ForeignKey(
        "warbands.PackVersion",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("pack version"),
    )

    class Meta:
        abstract = True
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def local_slug(self) -> str:
        """The slug as its pack wrote it (the engine's key for skills, items and races)."""
        return local_slug(self.slug, self.pack_version_id)

    @property
    def display_name(self) -> str:
        """The name in the reader's language (the Spanish one when it has none)."""
        return translated(self.name, self.translations, "name")

    @property
    def display_description(self) -> str:
        return translated(self.description, self.translations, "description")


class MaxProfile(models.Model):
    max_m = models.FloatField(pgettext_lazy("profile", "M max"), default=10)
    max_ws = models.PositiveSmallIntegerField(pgettext_lazy("profile", "WS max"), default=6)
    max_bs = models.PositiveSmallIntegerField(pgettext_lazy("profile", "BS max"), default=6)
    max_s = models.PositiveSmallIntegerField(pgettext_lazy("profile", "S max"), default=4)
    max_t = models.PositiveSmallIntegerField(pgettext_lazy("profile", "T max"), default=4)
    max_w = models.PositiveSmallIntegerField(pgettext_lazy("profile", "W max"), default=3)
    max_i = models.PositiveSmallIntegerField(pgettext_lazy("profile", "I max"), default=6)
    max_a = models.PositiveSmallIntegerField(pgettext_lazy("profile", "A max"), default=4)
    max_ld = models.PositiveSmallIntegerField(pgettext_lazy("profile", "Ld max"), default=9)

    class Meta:
        abstract = True

    def max_profile(self) -> dict:
        return {field: getattr(self, f"max_{field}") for field in PROFILE_FIELDS}


class Profile(models.Model):
    """A characteristic profile (perfil de atributos); M in centimetres."""

    m = models.FloatField(PROFILE_HEADERS["m"], default=10)
    ws = models.PositiveSmallIntegerField(PROFILE_HEADERS["ws"], default=3)
    bs = models.PositiveSmallIntegerField(PROFILE_HEADERS["bs"], default=3)
    s = models.PositiveSmallIntegerField(PROFILE_HEADERS["s"], default=3)
    t = models.PositiveSmallIntegerField(PROFILE_HEADERS["t"], default=3)
    w = models.PositiveSmallIntegerField(PROFILE_HEADERS["w"], default=1)
    i = models.PositiveSmallIntegerField(PROFILE_HEADERS["i"], default=3)
    a = models.PositiveSmallIntegerField(PROFILE_HEADERS["a"], default=1)
    ld = models.PositiveSmallIntegerField(PROFILE_HEADERS["ld"], default=7)

    class Meta:
        abstract = True

    def profile(self) -> dict:
        return {field: getattr(self, field) for field in PROFILE_FIELDS}


class Race(CatalogueRow, MaxProfile):
    class Meta(CatalogueRow.Meta):
        verbose_name = _("race")
        verbose_name_plural = _("races")


class SpecialRule(CatalogueRow):
    class Meta(CatalogueRow.Meta):
        verbose_name = _("special rule")
        verbose_name_plural = _("special rules")


class SkillList(CatalogueRow):
    class Meta(CatalogueRow.Meta):
        verbose_name = _("skill list")
        verbose_name_plural = _("skill lists")


class Skill(CatalogueRow):
    skill_list = models.ForeignKey(
        SkillList, on_delete=models.CASCADE, related_name="skills", verbose_name=_("skill list")
    )
    effects = models.JSONField(_("effects"), default=dict, blank=True)

    class Meta(CatalogueRow.Meta):
        verbose_name = _("skill")
        verbose_name_plural = _("skills")


class Equipment(CatalogueRow):
    class Kind(models.TextChoices):
        MELEE = "melee", _("close-combat weapon")
        MISSILE = "missile", _("missile weapon")
        ARMOUR = "armour", _("armour")
        SHIELD = "shield", _("shield")
        HELMET = "helmet", _("helmet")
        MISC = "misc", _("miscellaneous")

    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    cost = models.PositiveIntegerField(_("cost (co)"))
    cost_dice = models.CharField(
        _("extra cost dice"), max_length=12, blank=True, help_text=_('e.g. "3D6" for 35+3D6.')
    )
    rarity = models.PositiveSmallIntegerField(
        _("rarity"), null=True, blank=True, help_text=_("Empty for common items.")
    )
    two_handed = models.BooleanField(_("two-handed"), default=False)
    range_cm = models.PositiveSmallIntegerField(_("range (cm)"), null=True, blank=True)
    strength = models.CharField(_("strength"), max_length=20, blank=True)
    armour_save = models.PositiveSmallIntegerField(_("armour save"), null=True, blank=True)
    rules = models.JSONField(
        _("rules data"),
        default=dict,
        blank=True,
        help_text=_("Data keys read by the rules engine and the loadout checks."),
    )

    class Meta(CatalogueRow.Meta):
        verbose_name = _("equipment")
        verbose_name_plural = _("equipment")

    @property
    def is_rare(self) -> bool:
        return self.rarity is not None

    @property
    def display_strength(self) -> str:
        """The strength column in the reader's language ("usuario", "+1 (1er asalto)")."""
        return translated(self.strength, self.translations, "strength")


class EquipmentList(CatalogueRow):
    items = models.ManyToManyField(
        Equipment,
        through="EquipmentListEntry",
        related_name="equipment_lists",
        verbose_name=_("items"),
    )

    class Meta(CatalogueRow.Meta):
        verbose_name = _("equipment list")
        verbose_name_plural = _("equipment lists")


class EquipmentListEntry(models.Model):
    equipment_list = models.ForeignKey(
        EquipmentList,
        on_delete=models.CASCADE,
        related_name="entries",
        verbose_name=_("equipment list"),
    )
    equipment = models.ForeignKey(
        Equipment, on_delete=models.CASCADE, related_name="+", verbose_name=_("equipment")
    )
    cost = models.PositiveIntegerField(
        _("cost override (co)"), null=True, blank=True, help_text=_("Empty: the item's cost.")
    )
    common = models.BooleanField(
        _("common for this list"),
        default=False,
        help_text=_("A rare item this list may buy freely (e.g. elven bows for elves)."),
    )

    class Meta:
        verbose_name = _("equipment list entry")
        verbose_name_plural = _("equipment list entries")
        constraints = [
            models.UniqueConstraint(
                fields=["equipment_list", "equipment"], name="equipment_list_entry_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.equipment_list_id}: {self.equipment_id}"

    @property
    def price(self) -> int:
        return self.equipment.cost if self.cost is None else self.cost

    @property
    def is_rare(self) -> bool:
        return self.equipment.is_rare and not self.common


class WarbandType(CatalogueRow):
    race = models.ForeignKey(
        Race, on_delete=models.PROTECT, related_name="+", verbose_name=_("race")
    )
    starting_treasury = models.PositiveIntegerField(_("starting treasury (co)"), default=500)
    min_size = models.PositiveSmallIntegerField(_("minimum warriors"), default=3)
    max_size = models.PositiveSmallIntegerField(_("maximum warriors"), default=15)
    max_heroes = models.PositiveSmallIntegerField(
        _("maximum heroes"), default=6, help_text=_("Including the leader.")
    )
    playable = models.BooleanField(_("playable"), default=True)

    class Meta(CatalogueRow.Meta):
        verbose_name = _("warband type")
        verbose_name_plural = _("warband types")


class FighterType(CatalogueRow, Profile):
    class Role(models.TextChoices):
        LEADER = "leader", _("leader")
        HERO = "hero", _("hero")
        HENCHMAN = "henchman", _("henchman")

    warband_type = models.ForeignKey(
        WarbandType,
        on_delete=models.CASCADE,
        related_name="fighter_types",
        verbose_name=_("warband type"),
    )
    race = models.ForeignKey(
        Race, on_delete=models.PROTECT, related_name="+", verbose_name=_("race")
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices)
    cost = models.PositiveIntegerField(_("cost (co)"))
    max_count = models.PositiveSmallIntegerField(
        _("maximum in a warband"), null=True, blank=True, help_text=_("Empty: no limit.")
    )
    group_max_size = models.PositiveSmallIntegerField(_("maximum group size"), default=5)
    starting_experience = models.PositiveSmallIntegerField(_("starting experience"), default=0)
    is_large = models.BooleanField(_("large creature"), default=False)
    can_gain_experience = models.BooleanField(_("gains experience"), default=True)
    special_rules = models.JSONField(_("special rules"), default=list, blank=True)
    equipment_list = models.ForeignKey(
        EquipmentList,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("equipment list"),
    )
    skill_lists = models.ManyToManyField(
        SkillList, blank=True, related_name="+", verbose_name=_("skill lists")
    )
    order = models.PositiveSmallIntegerField(_("order"), default=0)

    class Meta(CatalogueRow.Meta):
        verbose_name = _("fighter type")
        verbose_name_plural = _("fighter types")
        ordering = ["warband_type", "order", "name"]

    @property
    def is_hero(self) -> bool:
        return self.role != self.Role.HENCHMAN

    @property
    def is_leader(self) -> bool:
        return self.role == self.Role.LEADER


class HiredSword(models.Model):
    """Espada de alquiler: the terms on which a fighter type serves any warband for pay.

    The fighter type (under a non-playable warband type of its pack) holds what a warrior is:
    profile, race, skill lists, special rules, starting experience, the hire fee (``cost``) and
    how many one warband may hire (``max_count``). This row holds what the hiring adds.
    """

    fighter_type = models.OneToOneField(
        FighterType,
        on_delete=models.CASCADE,
        related_name="hired_sword",
        verbose_name=_("fighter type"),
    )
    upkeep = models.PositiveIntegerField(
        _("upkeep per battle (co)"), help_text=_("Paid after every battle, or the sword leaves.")
    )
    rating_value = models.PositiveSmallIntegerField(
        _("rating value"), default=5, help_text=_("Added to the rating, plus its experience.")
    )
    allowed_warband_types = models.ManyToManyField(
        WarbandType,
        blank=True,
        related_name="+",
        verbose_name=_("warband types that may hire it"),
        help_text=_("None selected: every warband type except the excluded ones."),
    )
    excluded_warband_types = models.ManyToManyField(
        WarbandType,
        blank=True,
        related_name="+",
        verbose_name=_("warband types that may not hire it"),
    )
    equipment = models.ManyToManyField(
        Equipment, blank=True, related_name="+", verbose_name=_("own equipment")
    )

    class Meta:
        verbose_name = _("hired sword")
        verbose_name_plural = _("hired swords")
        ordering = ["fighter_type__order", "fighter_type__name"]

    def __str__(self) -> str:
        return self.fighter_type.name

    @property
    def slug(self) -> str:
        return self.fighter_type.slug

    @property
    def name(self) -> str:
        return self.fighter_type.name

    @property
    def display_name(self) -> str:
        return self.fighter_type.display_name

    @property
    def display_description(self) -> str:
        return self.fighter_type.display_description

    @property
    def hire_fee(self) -> int:
        return self.fighter_type.cost

    def may_serve(self, warband_type: WarbandType) -> bool:
        """Whether a warband of ``warband_type`` may hire it (the lists prefetched or not)."""
        allowed = {t.pk for t in self.allowed_warband_types.all()}
        excluded = {t.pk for t in self.excluded_warband_types.all()}
        return warband_type.pk not in excluded and (not allowed or warband_type.pk in allowed)
