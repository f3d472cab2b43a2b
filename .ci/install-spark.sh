#!/usr/bin/env bash
# Spark for the cross-engine suite (tests/engines): a Java runtime (Debian's
# openjdk-17-jre-headless when no `java` is on PATH; Spark 4 needs Java 17 or newer) and pyspark
# in the project's venv (the [spark] extra). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

if ! command -v java >/dev/null 2>&1; then
  $sudo apt-get update -q
  $sudo apt-get install -y -q --no-install-recommends openjdk-17-jre-headless >/dev/null
fi
python=${PYTHON:-.venv/bin/python}
if ! "$python" -c "import pyspark" >/dev/null 2>&1; then
  "$python" -m pip install -q -e '.[spark]'
fi
echo "spark: $(java -version 2>&1 | head -1); pyspark $("$python" -c 'import pyspark; print(pyspark.__version__)')"
