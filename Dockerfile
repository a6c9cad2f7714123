# The Kibitz node image: the package, the web client, and Debian's stockfish for the
# chess arena (bots in rooms do not need it).
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml setup.py README.md ./
COPY server ./server
COPY web ./web
# gcc for the one compiled part (the chess move generator), removed once it is built
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && pip install --no-cache-dir -e . \
    && apt-get purge -y --auto-remove gcc libc6-dev && rm -rf /var/lib/apt/lists/*
EXPOSE 8765
HEALTHCHECK --interval=10s --timeout=3s CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8765/healthz').status != 200)"
ENTRYPOINT ["kibitz"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8765"]
