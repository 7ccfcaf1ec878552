#!/usr/bin/env bash
# The system clipboard under a Wayland compositor, read from outside the app: a small ladder
# opens in weston, File → Copy standings is clicked, and `wl-paste` (a native Wayland client)
# must read the standings (tab-separated, a header and a row per player); then a name `wl-copy`
# put on the Wayland clipboard is pasted with Ctrl+V into Players → New player and added with
# Enter, and the ladder must hold that player.
#
# The app is built without winit's Wayland backend (eframe's `x11` feature only), so on a
# Wayland desktop it runs under XWayland — alone, with DISPLAY unset, it says "DISPLAY is not
# set; note: enable the `winit/wayland` feature to support Wayland". Copy and paste then go
# through the compositor's bridge between the X11 and Wayland clipboards; this is what is tested.
#
# Why weston runs nested in Xvfb (its x11 backend) rather than headless: the headless backend
# has no seat, so `wl-paste` answers "Missing a seat" and Xwayland crashes (signal 11) on the
# first xdotool event. Nested, weston's seat takes Xvfb's pointer and keyboard, which xdotool
# drives. That backend passes the pointer on as relative motion, so each move starts from the
# output's top-left corner, where weston's pointer and Xvfb's agree.
# SMOKE_BIN=target/debug/rungs starts that binary instead of a release build.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v weston >/dev/null || missing+=(weston)
command -v Xwayland >/dev/null || missing+=(xwayland)
{ command -v wl-copy >/dev/null && command -v wl-paste >/dev/null; } || missing+=(wl-clipboard)
command -v Xvfb >/dev/null || missing+=(xvfb)
command -v xwininfo >/dev/null || missing+=(x11-utils)
command -v xdotool >/dev/null || missing+=(xdotool)
[ -e /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so ] || [ -e /usr/lib/x86_64-linux-gnu/dri/llvmpipe_dri.so ] || missing+=(libgl1-mesa-dri)
if [ ${#missing[@]} -gt 0 ]; then
  echo "skipped: the Wayland clipboard test needs the Debian packages ${missing[*]}"
  if [ -n "${CI:-}" ]; then exit 1; fi
  exit 0
fi

export CARGO_HOME=${CARGO_HOME:-$HOME/.cargo} RUSTUP_HOME=${RUSTUP_HOME:-$HOME/.rustup}
if [ -n "${SMOKE_BIN:-}" ]; then
  bin=$SMOKE_BIN
else
  cargo build --release --bin rungs
  bin=target/release/rungs
fi
work=$(mktemp -d)
trap 'kill ${copier:-} ${app:-} ${weston:-} ${xvfb:-} 2>/dev/null || true; rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config" HOME="$work"
export XDG_RUNTIME_DIR="$work/runtime" WAYLAND_DISPLAY=wayland-rungs
mkdir -p "$XDG_DATA_HOME/rungs" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
ladder="$work/club.rungs"
"$bin" new "$ladder" >/dev/null
for name in "Ann Lee" "Bo Chen" "Cy Diaz"; do "$bin" add-player "$ladder" "$name" >/dev/null; done

outer=:$((90 + RANDOM % 100))
Xvfb "$outer" -screen 0 1400x900x24 >"$work/xvfb.log" 2>&1 &
xvfb=$!
sleep 2
DISPLAY=$outer env -u WAYLAND_DISPLAY weston --backend=x11-backend.so --use-pixman --width=1300 --height=850 \
  --socket="$WAYLAND_DISPLAY" --xwayland --no-config >"$work/weston.log" 2>&1 &
weston=$!
xwayland=
for _ in $(seq 1 30); do
  xwayland=$(sed -n 's/.*xserver listening on display \(:[0-9]*\).*/\1/p' "$work/weston.log")
  if [ -n "$xwayland" ]; then break; fi
  if ! kill -0 "$weston" 2>/dev/null; then echo "weston exited:"; cat "$work/weston.log"; exit 1; fi
  sleep 1
done
[ -n "$xwayland" ] || { echo "weston started no Xwayland"; cat "$work/weston.log"; exit 1; }
out=$(DISPLAY=$outer xwininfo -root -tree | awk '/"Weston Compositor/ {print $1; exit}')
[ -n "$out" ] || { echo "weston opened no output window"; cat "$work/weston.log"; exit 1; }
info=$(DISPLAY=$outer xwininfo -id "$out")
ox=$(awk '/Absolute upper-left X/ {print $NF}' <<<"$info")
oy=$(awk '/Absolute upper-left Y/ {print $NF}' <<<"$info")

# The app as a Wayland desktop starts it: WAYLAND_DISPLAY and XWayland's DISPLAY.
DISPLAY=$xwayland "$bin" "$ladder" >"$work/app.log" 2>&1 &
app=$!
for _ in $(seq 1 60); do
  if DISPLAY=$xwayland xwininfo -root -tree 2>/dev/null | grep -q '"rungs"'; then break; fi
  if ! kill -0 "$app" 2>/dev/null; then echo "the app exited:"; cat "$work/app.log"; exit 1; fi
  sleep 1
done
id=$(DISPLAY=$xwayland xwininfo -root -tree | awk '/"rungs"/ {print $1; exit}')
[ -n "$id" ] || { echo "no rungs window appeared"; cat "$work/app.log"; exit 1; }
sleep 3
# Xwayland's windows sit where weston placed them on its output.
info=$(DISPLAY=$xwayland xwininfo -id "$id")
x=$((ox + $(awk '/Absolute upper-left X/ {print $NF}' <<<"$info")))
y=$((oy + $(awk '/Absolute upper-left Y/ {print $NF}' <<<"$info")))
w=$(awk '/Width:/ {print $NF}' <<<"$info")
h=$(awk '/Height:/ {print $NF}' <<<"$info")
# A click at points from the window's top-left corner: from the output's corner to there (see
# above), a rest (egui takes a press where it last saw the pointer), the click.
click() {
  DISPLAY=$outer xdotool mousemove "$ox" "$oy"
  sleep 0.2
  DISPLAY=$outer xdotool mousemove $((x + $1)) $((y + $2))
  sleep 0.3
  DISPLAY=$outer xdotool click 1
  sleep 1
}
# File, then its Copy standings item: the points .ci/clipboard-x11.sh clicks.
click 28 20
click 101 264
got=$(timeout 10 wl-paste 2>&1 || true)
echo "window ${w}x${h}; the Wayland clipboard holds:"
printf '%s\n' "$got"
lines=$(printf '%s\n' "$got" | grep -c $'\t' || true)
printf '%s\n' "$got" | grep -q "Ann Lee" && [ "$lines" -ge 4 ] || {
  echo "the Wayland clipboard does not hold the standings"; cat "$work/app.log"; exit 1; }

# Pasting from outside: wl-copy stays in the foreground as the clipboard's owner; a click
# gives the app the keyboard again, then the Players tab, its New player field, Ctrl+V, Enter.
wl-copy --foreground 'Zed Pasted' &
copier=$!
sleep 1
click 353 35
click 185 66
DISPLAY=$outer xdotool key ctrl+v
sleep 0.5
DISPLAY=$outer xdotool key Return
sleep 2
if "$bin" events "$ladder" --json | grep -q '"name": *"Zed Pasted"'; then
  echo "pasted from outside: the ladder holds Zed Pasted"
else
  echo "the name pasted with Ctrl+V did not reach New player"; cat "$work/app.log"; exit 1
fi
echo "clipboard under Wayland: 2 passed, 0 failed"
