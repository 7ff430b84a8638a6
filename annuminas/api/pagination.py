from rest_framework.pagination import PageNumberPagination


class StandardPagination(PageNumberPagination):
    """Every list's page: ``{"count", "next", "previous", "results"}``, the links absolute or
    null. All four are always answered, so the schema requires them all (DRF's own declares
    only count and results)."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_paginated_response_schema(self, schema):
        declared = super().get_paginated_response_schema(schema)
        declared["required"] = ["count", "next", "previous", "results"]
        return declared
