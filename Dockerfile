FROM python:3.11-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN apt-get update \
 && apt-get install -y --no-install-recommends libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz0b \
    fonts-dejavu-core curl \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY pyproject.toml README.md ./
RUN pip install --no-cache-dir .
COPY . .
# The static storage must be chosen before collectstatic runs: the hashed names and the manifest
# every {% static %} reads are written by it (a manifest missing makes every page a 500).
# CI's smoke test (.ci/smoke) plays these ENV and manage.py steps and serves the result.
ENV STATIC_MANIFEST=true WHITENOISE_USE_FINDERS=false
RUN DEBUG=false SECRET_KEY=build-only python manage.py collectstatic --noinput
RUN useradd --create-home annuminas && chown -R annuminas /app
USER annuminas
EXPOSE 8000
CMD ["gunicorn", "-c", "gunicorn.conf.py", "annuminas.wsgi:application"]
