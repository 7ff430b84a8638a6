"""``?ordering=``: a field the list is not ordered by is a 400 ``invalid_ordering``, not ignored."""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError
from rest_framework.filters import OrderingFilter


class StrictOrderingFilter(OrderingFilter):
    def get_ordering(self, request, queryset, view):
        params = request.query_params.get(self.ordering_param)
        if params:
            fields = [param.strip() for param in params.split(",") if param.strip()]
            valid = {
                name for name, _label in self.get_valid_fields(queryset, view, {"request": request})
            }
            wrong = [field for field in fields if field.lstrip("-") not in valid]
            if wrong:
                raise ValidationError(
                    {
                        self.ordering_param: [
                            _("Order by one of: %(fields)s.")
                            % {"fields": ", ".join(sorted(valid)) or "—"}
                        ]
                    },
                    code="invalid_ordering",
                )
        return super().get_ordering(request, queryset, view)
