"""JSON parsing that answers 400 for every malformed body, deeply nested ones included."""

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class SafeJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError as exc:  # json.loads on thousands of nested brackets
            raise ParseError("JSON parse error - the document is nested too deeply.") from exc
