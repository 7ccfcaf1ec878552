#!/usr/bin/env bash
# Takes the README's screenshots from the real app under Xvfb, so they stay current:
#   bash docs/screenshots.sh                                  # builds target/release/rungs first
#   RUNGS_BIN=/path/to/rungs bash docs/screenshots.sh         # uses that binary
# It makes the demo ladder as .ci/smoke-gui.sh does, starts the app on it in a 1400x900
# virtual screen, clicks through the screens by the tabs' coordinates (the window opens at
# 1200x800 in the top left corner) and writes docs/screenshots/<screen>.png, cut to the window
# and reduced to 256 colours. If the tab row changes, adjust the coordinates below.
set -euo pipefail
cd "$(dirname "$0")/.."
out=docs/screenshots

need=()
command -v Xvfb >/dev/null || need+=(xvfb)
command -v xwininfo >/dev/null || need+=(x11-utils)
command -v import >/dev/null || need+=(imagemagick)
command -v xdotool >/dev/null || need+=(xdotool)
[ -e /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so ] || [ -e /usr/lib/x86_64-linux-gnu/dri/llvmpipe_dri.so ] || need+=(libgl1-mesa-dri)
[ -e /usr/lib/x86_64-linux-gnu/libEGL.so.1 ] || need+=(libegl1 libgl1)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing ${need[*]}"
  sudo=; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

export CARGO_HOME=${CARGO_HOME:-$HOME/.cargo} RUSTUP_HOME=${RUSTUP_HOME:-$HOME/.rustup}
if [ -n "${RUNGS_BIN:-}" ]; then
  bin=$(realpath "$RUNGS_BIN")
else
  cargo build --release --bin rungs
  bin=$PWD/target/release/rungs
fi

work=$(mktemp -d)
trap 'kill ${app:-} ${xvfb:-} 2>/dev/null || true; rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache" HOME="$work"
mkdir -p "$XDG_DATA_HOME/rungs"
ladder="$XDG_DATA_HOME/rungs/ladder.rungs"
"$bin" new "$ladder" >/dev/null
"$bin" import "$ladder" assets/international_results.csv.gz --preset international

# A free display: no X socket or lock file for it.
n=90
while [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ]; do n=$((n + 1)); done
export DISPLAY=:$n
Xvfb "$DISPLAY" -screen 0 1400x900x24 >"$work/xvfb.log" 2>&1 &
xvfb=$!
sleep 2
"$bin" "$ladder" >"$work/app.log" 2>&1 &
app=$!

id=
for _ in $(seq 1 60); do
  id=$(xwininfo -root -tree 2>/dev/null | awk '/\("rungs" "rungs"\)/ {print $1; exit}' || true)
  [ -n "$id" ] && break
  if ! kill -0 "$app" 2>/dev/null; then echo "the app exited:"; cat "$work/app.log"; exit 1; fi
  sleep 1
done
[ -n "$id" ] || { echo "no rungs window appeared"; cat "$work/app.log"; exit 1; }
sleep 3
xdotool windowfocus "$id"
info=$(xwininfo -id "$id")
geom="$(awk '/Width:/ {print $NF}' <<<"$info")x$(awk '/Height:/ {print $NF}' <<<"$info")+$(awk '/Absolute upper-left X/ {print $NF}' <<<"$info")+$(awk '/Absolute upper-left Y/ {print $NF}' <<<"$info")"
echo "window $id at $geom"

click() { xdotool mousemove "$1" "$2" click 1; sleep "${3:-1}"; }
typein() { xdotool type --delay 40 "$1"; sleep 0.3; }
key() { xdotool key "$@"; sleep 0.5; }
shot() {
  sleep "${2:-1}"
  import -window root "$work/full.png"
  convert "$work/full.png" -crop "$geom" +repage -colors 256 -strip "PNG8:$out/$1.png"
  echo "$out/$1.png: $(du -k "$out/$1.png" | cut -f1) KB"
}

# The tab row (y = 35), left to right.
tab_y=35
standings=44 enter_match=132 tonight=214 matches=284 players=353 seasons=421
history=489 replay=554 settings=620 migration=697 whatif=769 more=835

mkdir -p "$out"
click $standings $tab_y
shot standings

click $enter_match $tab_y
click 215 83                                  # Player A
typein "Spain"; key Tab                       # Tab completes and moves to Player B
typein "Portugal"; key Tab
shot enter-match

click $matches $tab_y
shot matches

click $players $tab_y
click 145 100                                 # Search
typein "Brazil"
click 40 141 1.5                              # the first (only) match
shot players

click $seasons $tab_y
click 237 66 2                                # Soft reset (end week 1)…: its preview, not applied
shot seasons
key Escape

click $history $tab_y
click 98 83                                   # Plot player
typein "Brazil"; key Return
typein "Argentina"; key Return
shot history 2

click $tonight $tab_y
click 276 90                                  # Everyone active
click 1053 66 3                               # Pair
shot tonight

click $more $tab_y
click 866 62                                  # More ▾ → Prediction quality
click 112 99                                  # Score every system on this ladder
# Scoring replays the whole log once per system: wait (up to 3 minutes) until the table fills
# the space below the button.
for _ in $(seq 1 90); do
  import -window root "$work/full.png"
  spread=$(convert "$work/full.png" -crop "$geom" +repage -crop 1000x150+0+140 -colorspace Gray -format "%[fx:standard_deviation]" info:)
  awk -v s="$spread" 'BEGIN { exit !(s > 0.05) }' && break
  sleep 2
done
shot prediction-quality 2
