"""Install the Debian packages the test suite needs, only when they are missing.

Chromium drives the browser tests (Playwright cannot download its own browser here);
Java and Maven run the local Apache Kafka broker; Tesseract with its Indonesian model is the
peer ``bench/ocr.py`` compares our OCR with.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

NEEDED = {
    "/usr/bin/chromium": "chromium",
    "java": "default-jre-headless",
    "mvn": "maven",
    "tesseract": "tesseract-ocr",
    "/usr/share/tesseract-ocr/5/tessdata/ind.traineddata": "tesseract-ocr-ind",
}


def missing_packages() -> list[str]:
    missing = []
    for probe, package in NEEDED.items():
        found = os.path.exists(probe) if probe.startswith("/") else shutil.which(probe)
        if not found:
            missing.append(package)
    return missing


def main() -> int:
    missing = missing_packages()
    if not missing:
        return 0
    if os.geteuid() != 0:
        print(f"Paket sistem hilang: {' '.join(missing)}. Pasang dengan apt-get (butuh root).")
        return 1
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-q"], check=True, env=env)
    subprocess.run(["apt-get", "install", "-y", "-q", *missing], check=True, env=env)
    return 0


if __name__ == "__main__":
    sys.exit(main())
