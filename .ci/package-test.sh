#!/usr/bin/env bash
# The Debian package checked as a user would meet it: target/debian/rungs_<version>_<arch>.deb
# (from .ci/package-deb.sh) installed with dpkg, rungs run from PATH on a small ladder, the man
# page, completions, desktop entry and file type in place, then removed and purged, and every
# file it brought gone. The machine is left as it was found: a failure purges the package (and
# anything apt had to pull in for it) on the way out.
#
# Needs root and dpkg. Without dpkg it is skipped; without root it unpacks the package with
# `dpkg -x` and checks its contents only. Under CI (CI set) either of those is a failure.
set -euo pipefail
cd "$(dirname "$0")/.."

skip() {
  if [ -n "${CI:-}" ]; then
    echo "package-test: $1, which CI requires" >&2
    exit 1
  fi
  echo "skipped: $1"
  exit 0
}
command -v dpkg >/dev/null || skip "dpkg is not installed"

version=$(awk '
  /^\[/ { section = $0; next }
  section == "[workspace.package]" && $1 == "version" { gsub(/[" \t]/, "", $0); sub(/^version=/, ""); print; exit }
' Cargo.toml)
arch=$(dpkg --print-architecture)
deb=target/debian/rungs_${version}_${arch}.deb
[ -f "$deb" ] || { echo "package-test: no $deb; run .ci/package-deb.sh first" >&2; exit 1; }
deb=$(realpath "$deb")

passed=0 failed=0
ok() { echo "ok: $1"; passed=$((passed + 1)); }
bad() { echo "FAILED: $1"; failed=$((failed + 1)); }
check() { # check DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then ok "$what"; else bad "$what"; fi
}

work=$(mktemp -d)
installed=0 pulled=()
cleanup() {
  local status=$?
  if [ "$installed" = 1 ]; then
    echo "cleaning up: purging rungs${pulled[*]:+ and ${pulled[*]}}"
    dpkg -P rungs >/dev/null 2>&1 || true
    if [ ${#pulled[@]} -gt 0 ]; then
      DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq "${pulled[@]}" >/dev/null 2>&1 || true
    fi
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The package's files and folders, as `dpkg-deb -c` lists them (./usr/bin/rungs → /usr/bin/rungs).
files=() dirs=()
while read -r kind path; do
  if [ "$kind" = d ]; then dirs+=("$path"); else files+=("$path"); fi
done < <(dpkg-deb -c "$deb" | awk '{ p = $6; sub(/^\./, "", p); sub(/\/$/, "", p); if (p != "") print substr($1, 1, 1), p }')
[ ${#files[@]} -gt 0 ] || { echo "package-test: $deb lists no files" >&2; exit 1; }
echo "$deb: ${#files[@]} files, $(du -k "$deb" | cut -f1) KiB"

# A user's session: a clean PATH, a home of its own (the app's settings go there).
user_env=(env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
  HOME="$work/home" XDG_DATA_HOME="$work/home/.local/share" XDG_CONFIG_HOME="$work/home/.config")
mkdir -p "$work/home" "$work/ladder"
printf 'date,player_a,player_b,score\n2026-01-05,Ada,Brook,1\n2026-01-06,Brook,Cyd,0.5\n2026-01-07,Cyd,Ada,0\n' \
  >"$work/ladder/club.csv"

# The headless use a club organiser starts with: a ladder, a CSV of results, a player and a
# match entered by hand, the standings. RUNGS is the binary to run.
headless() {
  local rungs=$1 out
  (
    cd "$work/ladder"
    rm -f club.rungs
    "${user_env[@]}" "$rungs" new club.rungs >/dev/null &&
      "${user_env[@]}" "$rungs" import club.rungs club.csv --preset standard >/dev/null &&
      "${user_env[@]}" "$rungs" add-player club.rungs Dee >/dev/null &&
      "${user_env[@]}" "$rungs" add-match club.rungs Dee Ada 1 --date 2026-01-08 >/dev/null &&
      "${user_env[@]}" "$rungs" standings club.rungs >standings.txt
  ) || return 1
  out=$(cat "$work/ladder/standings.txt")
  echo "$out" | sed 's/^/    /'
  for name in Ada Brook Cyd Dee; do grep -qw "$name" <<<"$out" || return 1; done
}

if [ "$(id -u)" != 0 ]; then
  # Contents only: the package unpacked into a scratch folder.
  dpkg -x "$deb" "$work/root"
  missing=()
  for f in "${files[@]}"; do [ -e "$work/root$f" ] || missing+=("$f"); done
  check "every file of the package unpacks (${missing[*]:-none missing})" test ${#missing[@]} = 0
  check "rungs --version says rungs $version" test "$("$work/root/usr/bin/rungs" --version)" = "rungs $version"
  check "the unpacked rungs keeps a ladder headless" headless "$work/root/usr/bin/rungs"
  check "the man page is gzipped roff" sh -c "zcat '$work/root/usr/share/man/man1/rungs.1.gz' | grep -q '^\.TH rungs 1'"
  if command -v desktop-file-validate >/dev/null; then
    check "the desktop entry validates" desktop-file-validate "$work/root/usr/share/applications/rungs.desktop"
  fi
  echo "package-test (contents only): $passed passed, $failed failed"
  [ "$failed" = 0 ] || exit 1
  skip "not root, so the package was unpacked, not installed"
fi

if dpkg-query -W -f='${Status}' rungs 2>/dev/null | grep -q 'installed$'; then
  echo "package-test: a rungs package is installed already ($(dpkg-query -W -f='${Version}' rungs)); remove it first (dpkg -P rungs)" >&2
  exit 1
fi
# What was there before: folders the package brings that existed already stay after the purge.
absent_dirs=()
for d in "${dirs[@]}"; do [ -e "$d" ] || absent_dirs+=("$d"); done
for f in "${files[@]}"; do
  [ ! -e "$f" ] || { echo "package-test: $f exists already, and no package owns it as rungs" >&2; exit 1; }
done

echo "== install"
installed=1
if ! dpkg -i "$deb" >"$work/dpkg.log" 2>&1; then
  # Missing Depends: apt pulls them in; what it installs is purged again at the end.
  cat "$work/dpkg.log"
  dpkg-query -W -f='${Package}\n' | sort >"$work/before"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$deb" >/dev/null
  mapfile -t pulled < <(dpkg-query -W -f='${Package}\n' | sort | comm -13 "$work/before" - | grep -vx rungs || true)
  echo "apt installed ${pulled[*]:-nothing else}"
fi
sed -n 's/^\(Selecting\|Unpacking\|Setting up\|Processing\).*/  &/p' "$work/dpkg.log" || true
check "dpkg says rungs $version is installed" \
  test "$(dpkg-query -W -f='${Status} ${Version}' rungs)" = "install ok installed $version"
missing=()
for f in "${files[@]}"; do [ -e "$f" ] || missing+=("$f"); done
check "every file of the package is on disk (${missing[*]:-none missing})" test ${#missing[@]} = 0
check "rungs is on a user's PATH as /usr/bin/rungs" test "$("${user_env[@]}" sh -c 'command -v rungs')" = /usr/bin/rungs
got=$("${user_env[@]}" rungs --version 2>&1 || true)
echo "    $got"
check "rungs --version says rungs $version" test "$got" = "rungs $version"
check "a ladder headless from the command line (new, import, add-player, add-match, standings)" headless rungs
if command -v man >/dev/null; then
  check "man -w rungs finds /usr/share/man/man1/rungs.1.gz" \
    test "$("${user_env[@]}" man -w rungs 2>/dev/null)" = /usr/share/man/man1/rungs.1.gz
  check "man rungs renders its command list" \
    sh -c "MANPAGER=cat MANWIDTH=80 man rungs 2>/dev/null | grep -q 'RUNGS STANDINGS'"
else
  check "the man page is in place (man is not installed)" test -s /usr/share/man/man1/rungs.1.gz
fi
check "bash completion completes rungs' commands" bash -c \
  'source /usr/share/bash-completion/completions/rungs && complete -p rungs >/dev/null'
if command -v desktop-file-validate >/dev/null; then
  check "the desktop entry validates" desktop-file-validate /usr/share/applications/rungs.desktop
else
  echo "(desktop-file-validate is not installed: the desktop entry is not validated)"
fi
# shared-mime-info's and desktop-file-utils' triggers: the caches know .rungs files.
if command -v update-mime-database >/dev/null; then
  check "the MIME database maps *.rungs to application/x-rungs-ladder" \
    grep -q '^[0-9]*:application/x-rungs-ladder:\*\.rungs$' /usr/share/mime/globs2
fi
if command -v update-desktop-database >/dev/null; then
  check "the desktop database opens application/x-rungs-ladder in rungs" \
    grep -q '^application/x-rungs-ladder=.*rungs\.desktop' /usr/share/applications/mimeinfo.cache
fi
if command -v xdg-mime >/dev/null; then
  # Shown, not judged: without a desktop session xdg-mime asks file(1), which knows SQLite but
  # not rungs; the MIME database check above is the one that counts.
  type=$("${user_env[@]}" xdg-mime query filetype "$work/ladder/club.rungs" 2>/dev/null || true)
  app=$("${user_env[@]}" xdg-mime query default application/x-rungs-ladder 2>/dev/null || true)
  echo "    xdg-mime: club.rungs is ${type:-of no known type}, opened by ${app:-no application}"
fi

echo "== remove and purge"
dpkg -r rungs 2>&1 | sed -n 's/^Removing.*/  &/p'
check "after dpkg -r, /usr/bin/rungs is gone" test ! -e /usr/bin/rungs
dpkg -P rungs 2>&1 | sed -n 's/^Purging.*/  &/p'
installed=0
if [ ${#pulled[@]} -gt 0 ]; then
  DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq "${pulled[@]}" >/dev/null
  pulled=()
fi
forgotten() {
  local status
  status=$(dpkg-query -W -f='${Status}' rungs 2>/dev/null || true)
  [ -z "$status" ] || [[ $status == *" not-installed" ]]
}
check "dpkg no longer knows rungs" forgotten
left=()
for f in "${files[@]}"; do [ ! -e "$f" ] || left+=("$f"); done
for d in "${absent_dirs[@]}"; do [ ! -e "$d" ] || left+=("$d/"); done
[ ${#left[@]} = 0 ] || printf '    left behind: %s\n' "${left[@]}"
check "every file the package listed is gone (${#files[@]} files, ${#absent_dirs[@]} folders it created)" test ${#left[@]} = 0
not_on_path() { ! "${user_env[@]}" sh -c 'command -v rungs' >/dev/null; }
check "rungs is no longer on PATH" not_on_path
if command -v update-mime-database >/dev/null; then
  check "the MIME database forgot .rungs" sh -c "! grep -q 'application/x-rungs-ladder' /usr/share/mime/globs2"
fi
if command -v update-desktop-database >/dev/null; then
  check "the desktop database forgot rungs" \
    sh -c "! grep -q 'rungs\.desktop' /usr/share/applications/mimeinfo.cache 2>/dev/null"
fi

echo "package-test: $passed passed, $failed failed"
[ "$failed" = 0 ]
