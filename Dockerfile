FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends libpq5 && rm -rf /var/lib/apt/lists/*
# Runtime dependencies only (no pytest, locust, selenium, schemathesis, ruff), hash-checked.
COPY requirements/runtime.lock requirements/runtime.lock
RUN pip install --no-cache-dir --require-hashes -r requirements/runtime.lock
COPY . .
RUN SECRET_KEY=collectstatic-only PORTAL_URL=http://collectstatic.invalid python manage.py collectstatic --noinput
RUN useradd --create-home portal && mkdir -p /app/var && chown -R portal /app/var
USER portal
EXPOSE 8000
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]
