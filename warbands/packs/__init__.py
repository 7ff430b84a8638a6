"""Organisers' content packs: the document (``document``), its YAML file (``files``), the
services that write packs, versions and a campaign's move (``services``), what is read
(``selectors``), the pages (``views``) and the API (``api``)."""
