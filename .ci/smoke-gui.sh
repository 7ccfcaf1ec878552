#!/usr/bin/env bash
# A real-window smoke test: the README's `cargo run --release`, started under Xvfb on the demo
# ladder; fails if no window appears or the screenshot is blank. SMOKE_BIN=target/debug/rungs
# starts that binary instead (a quick local run).
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v Xvfb >/dev/null || need+=(xvfb)
command -v xwininfo >/dev/null || need+=(x11-utils)
command -v import >/dev/null || need+=(imagemagick)
[ -e /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so ] || [ -e /usr/lib/x86_64-linux-gnu/dri/llvmpipe_dri.so ] || need+=(libgl1-mesa-dri)
[ -e /usr/lib/x86_64-linux-gnu/libEGL.so.1 ] || need+=(libegl1 libgl1)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing ${need[*]}"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

# The test below moves HOME; cargo and rustup keep theirs.
export CARGO_HOME=${CARGO_HOME:-$HOME/.cargo} RUSTUP_HOME=${RUSTUP_HOME:-$HOME/.rustup}
if [ -n "${SMOKE_BIN:-}" ]; then
  bin=$SMOKE_BIN start=("$bin")
else
  cargo build --release --bin rungs
  bin=target/release/rungs start=(cargo run --release --quiet)
fi
work=$(mktemp -d)
trap 'kill ${app:-} ${xvfb:-} 2>/dev/null || true; rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config" HOME="$work"
mkdir -p "$XDG_DATA_HOME/rungs"
ladder="$XDG_DATA_HOME/rungs/ladder.rungs"
"$bin" new "$ladder" >/dev/null
"$bin" import "$ladder" assets/international_results.csv.gz --preset international

display=:$((90 + RANDOM % 100))
Xvfb "$display" -screen 0 1400x900x24 >"$work/xvfb.log" 2>&1 &
xvfb=$!
sleep 2
DISPLAY=$display "${start[@]}" >"$work/app.log" 2>&1 &
app=$!

for _ in $(seq 1 60); do
  if DISPLAY=$display xwininfo -root -tree 2>/dev/null | grep -q '"rungs"'; then break; fi
  if ! kill -0 "$app" 2>/dev/null; then echo "the app exited:"; cat "$work/app.log"; exit 1; fi
  sleep 1
done
DISPLAY=$display xwininfo -root -tree | grep -q '"rungs"' || { echo "no rungs window appeared"; cat "$work/app.log"; exit 1; }
sleep 3
shot=${SMOKE_SCREENSHOT:-$work/screenshot.png}
DISPLAY=$display import -window root "$shot"
# Judge the window's own pixels: a blank window on a black screen would still vary.
# The window is named after its file ("demo-international.rungs — rungs"); its class is rungs.
id=$(DISPLAY=$display xwininfo -root -tree | awk '/"rungs"/ {print $1; exit}')
info=$(DISPLAY=$display xwininfo -id "$id")
x=$(awk '/Absolute upper-left X/ {print $NF}' <<<"$info")
y=$(awk '/Absolute upper-left Y/ {print $NF}' <<<"$info")
w=$(awk '/Width:/ {print $NF}' <<<"$info")
h=$(awk '/Height:/ {print $NF}' <<<"$info")
spread=$(convert "$shot" -crop "${w}x${h}+${x}+${y}" -colorspace Gray -format "%[fx:standard_deviation]" info:)
echo "screenshot $shot: window ${w}x${h}, grey-level standard deviation $spread"
awk -v s="$spread" 'BEGIN { exit !(s > 0.02) }' || { echo "the window is blank"; exit 1; }
echo "smoke: 1 passed, 0 failed"
