"""What every feature of the campaigns uses: ``access`` (who may see and do what — the only
place), ``writes`` (the locks and gates every campaign or battle write opens with), ``pages``
(who reaches a page, a service's refusal on the page) and ``api`` (the same for endpoints),
``organisers`` (the organisers' admin site every feature registers its models on)."""
