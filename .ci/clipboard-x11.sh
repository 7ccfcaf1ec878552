#!/usr/bin/env bash
# The system clipboard, read from outside the app: a small ladder opens in a real window under
# Xvfb, File → Copy standings is clicked with xdotool, and `xclip` must read the standings
# (tab-separated, a header and a row per player) from the CLIPBOARD selection; then a name
# `xclip` put on the clipboard is pasted with Ctrl+V into Players → New player and added with
# Enter, and the ladder must hold that player; last, a name typed there and copied with Ctrl+C
# must reach `xclip`. Inside the app copy and paste worked without a clipboard backend; other
# programs saw nothing, and gave nothing.
# SMOKE_BIN=target/debug/rungs starts that binary instead of a release build.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v Xvfb >/dev/null || need+=(xvfb)
command -v xwininfo >/dev/null || need+=(x11-utils)
command -v xdotool >/dev/null || need+=(xdotool)
command -v xclip >/dev/null || need+=(xclip)
[ -e /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so ] || [ -e /usr/lib/x86_64-linux-gnu/dri/llvmpipe_dri.so ] || need+=(libgl1-mesa-dri)
[ -e /usr/lib/x86_64-linux-gnu/libEGL.so.1 ] || need+=(libegl1 libgl1)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing ${need[*]}"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

export CARGO_HOME=${CARGO_HOME:-$HOME/.cargo} RUSTUP_HOME=${RUSTUP_HOME:-$HOME/.rustup}
if [ -n "${SMOKE_BIN:-}" ]; then
  bin=$SMOKE_BIN
else
  cargo build --release --bin rungs
  bin=target/release/rungs
fi
work=$(mktemp -d)
trap 'kill ${app:-} ${xvfb:-} 2>/dev/null || true; rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config" HOME="$work"
mkdir -p "$XDG_DATA_HOME/rungs"
ladder="$work/club.rungs"
"$bin" new "$ladder" >/dev/null
for name in "Ann Lee" "Bo Chen" "Cy Diaz"; do "$bin" add-player "$ladder" "$name" >/dev/null; done

display=:$((90 + RANDOM % 100))
Xvfb "$display" -screen 0 1400x900x24 >"$work/xvfb.log" 2>&1 &
xvfb=$!
sleep 2
export DISPLAY=$display
"$bin" "$ladder" >"$work/app.log" 2>&1 &
app=$!
for _ in $(seq 1 60); do
  if xwininfo -root -tree 2>/dev/null | grep -q '"rungs"'; then break; fi
  if ! kill -0 "$app" 2>/dev/null; then echo "the app exited:"; cat "$work/app.log"; exit 1; fi
  sleep 1
done
id=$(xwininfo -root -tree | awk '/"rungs"/ {print $1; exit}')
[ -n "$id" ] || { echo "no rungs window appeared"; cat "$work/app.log"; exit 1; }
sleep 3
info=$(xwininfo -id "$id")
x=$(awk '/Absolute upper-left X/ {print $NF}' <<<"$info")
y=$(awk '/Absolute upper-left Y/ {print $NF}' <<<"$info")
w=$(awk '/Width:/ {print $NF}' <<<"$info")
h=$(awk '/Height:/ {print $NF}' <<<"$info")
# Where the File menu and its Copy standings item sit, in points from the window's top-left
# corner (one pixel a point under Xvfb): where the kittest harness lays them out, whatever the
# window's size. Moving items in the File menu moves these.
xdotool mousemove $((x + 28)) $((y + 20)) click 1
sleep 1
xdotool mousemove $((x + 101)) $((y + 264)) click 1
sleep 1
got=$(xclip -o -selection clipboard 2>/dev/null || true)
echo "window ${w}x${h}; the clipboard holds:"
printf '%s\n' "$got"
lines=$(printf '%s\n' "$got" | grep -c $'\t' || true)
printf '%s\n' "$got" | grep -q "Ann Lee" && [ "$lines" -ge 4 ] || {
  echo "the clipboard does not hold the standings"; cat "$work/app.log"; exit 1; }

# Pasting from outside: the window given the keyboard (no window manager does it here), the
# Players tab, its New player field, Ctrl+V, Enter. xclip stays behind as the clipboard's owner
# until another program takes it.
printf 'Zed Pasted\n' | xclip -selection clipboard
xdotool windowfocus "$id"
# (The pointer rests before each click: egui takes a press where it last saw the pointer.)
xdotool mousemove $((x + 353)) $((y + 35))
sleep 0.3
xdotool click 1
sleep 1
xdotool mousemove $((x + 185)) $((y + 66))
sleep 0.3
xdotool click 1
sleep 0.5
xdotool key ctrl+v
sleep 0.5
xdotool key Return
sleep 2
if "$bin" events "$ladder" --json | grep -q '"name": *"Zed Pasted"'; then
  echo "pasted from outside: the ladder holds Zed Pasted"
else
  echo "the name pasted with Ctrl+V did not reach New player"; cat "$work/app.log"; exit 1
fi
# Copying out of a text field: New player keeps the keyboard after Enter; a name typed
# there, Ctrl+A, Ctrl+C, and `xclip` must read it (Ctrl+C in a field reached nothing
# outside the app either). The name is left unsaved.
xdotool type --delay 50 "Copied Out"
sleep 0.3
xdotool key ctrl+a
sleep 0.3
xdotool key ctrl+c
sleep 1
got=$(xclip -o -selection clipboard 2>/dev/null || true)
if [ "$got" = "Copied Out" ]; then
  echo "copied out of a field: the clipboard holds Copied Out"
else
  echo "Ctrl+C in New player did not reach the clipboard (it holds: $got)"; cat "$work/app.log"; exit 1
fi
echo "clipboard: 3 passed, 0 failed"
