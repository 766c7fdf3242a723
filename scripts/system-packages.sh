#!/usr/bin/env bash
# Installs the Debian packages the tests need when their commands are missing (apt-get, as root or via sudo).
set -euo pipefail

declare -A command_of=(
  [gettext]=msgfmt
  [postgresql]=initdb
  [chromium]=/usr/bin/chromium
  [poppler-utils]=pdftoppm
  [zbar-tools]=zbarimg
  [fonts-dejavu-core]=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
)

present() {
  local what=$1
  if [[ $what == /* ]]; then [[ -e $what ]]; return; fi
  command -v "$what" >/dev/null 2>&1 && return 0
  [[ $what == initdb ]] && compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null
}

missing=()
for package in "$@"; do
  present "${command_of[$package]:-$package}" || missing+=("$package")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"
echo "Installing Debian packages: ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
