#!/bin/bash
# render.sh: render a results workbook (OutPut.xlsx) to PNG images, one per
# printed page, to look at its sheets and charts as a reader sees them,
# without Excel.
#
#   scripts/render.sh OutPut.xlsx [OUTDIR]
#
# LibreOffice (headless) converts the workbook to PDF, then pdftoppm cuts
# the PDF into pages at 60 dpi: OUTDIR/page-01.png, page-02.png, ...
# (OUTDIR defaults to the workbook's folder, in a "render" subfolder).
# RENDER_DPI sets another resolution.
#
# Needs soffice and pdftoppm; when either is missing, it installs Debian's
# libreoffice-calc-nogui and poppler-utils with apt-get (as root, or with
# sudo).
#
# Exit status 0 when the pages were written; 2 when the workbook is missing;
# 1 otherwise.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: scripts/render.sh OutPut.xlsx [OUTDIR]" >&2
	exit 2
fi
book=$1
if [ ! -f "$book" ]; then
	echo "render.sh: $book: no such file" >&2
	exit 2
fi
out=${2:-$(dirname "$book")/render}
dpi=${RENDER_DPI:-60}

if ! command -v soffice >/dev/null || ! command -v pdftoppm >/dev/null; then
	echo "render.sh: installing libreoffice-calc-nogui and poppler-utils" >&2
	sudo=""
	if [ "$(id -u)" -ne 0 ]; then
		sudo=sudo
	fi
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends libreoffice-calc-nogui poppler-utils
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
rm -f "$out"/page-*.png
# A profile of its own, so that a LibreOffice already open does not take
# the conversion over (or block it).
soffice -env:UserInstallation="file://$work/profile" --headless --norestore \
	--convert-to pdf --outdir "$work" "$book" >/dev/null
pdf="$work/$(basename "${book%.*}").pdf"
if [ ! -s "$pdf" ]; then
	echo "render.sh: LibreOffice wrote no PDF for $book" >&2
	exit 1
fi
pdftoppm -png -r "$dpi" "$pdf" "$out/page"
cp "$pdf" "$out/"
echo "$(ls "$out"/page-*.png | wc -l) pages in $out"
