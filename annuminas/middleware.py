"""Language selection: Spanish unless the visitor picked another language.

Pages follow the language cookie set by the language switcher and otherwise use Spanish (the
game's language), whatever the browser says. The API also honours ``Accept-Language`` so
companion apps can ask for English explanations without a cookie.
"""

from django.conf import settings
from django.middleware.locale import LocaleMiddleware
from django.utils import translation


class SiteLocaleMiddleware(LocaleMiddleware):
    def process_request(self, request):
        supported = {code for code, _name in settings.LANGUAGES}
        language = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        if language not in supported:
            language = None
            if request.path.startswith("/api/"):
                from_header = translation.get_language_from_request(request)
                if request.headers.get("Accept-Language") and from_header in supported:
                    language = from_header
        translation.activate(language or settings.LANGUAGE_CODE)
        request.LANGUAGE_CODE = translation.get_language()
