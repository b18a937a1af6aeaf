# Sourced by scripts/demo: steps that never leave the user waiting in silence, and a build
# that is skipped when nothing it compiles has changed.
#   CIMS_PROGRESS_SECONDS=...  how often a long step says it still runs (default 15)

progress_every="${CIMS_PROGRESS_SECONDS:-15}"

step() { printf '\n==> %s\n' "$*"; }

# run_long <what> <command...>: runs the command; while it runs, says every $progress_every
# seconds that it still does and for how long (npm ci, tsc and the engine's start print nothing
# for tens of seconds on a busy machine); then how long it took. Returns the command's status.
run_long() {
  local what=$1 start=$SECONDS next pid status=0
  shift
  next=$((start + progress_every))
  "$@" &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    sleep 0.2
    if ((SECONDS >= next)); then
      printf '\n[%s: still running, %ss elapsed]\n' "$what" "$((SECONDS - start))"
      next=$((SECONDS + progress_every))
    fi
  done
  wait "$pid" || status=$?
  printf '[%s: %s after %ss]\n' "$what" "$( ((status == 0)) && echo done || echo "failed (exit $status)")" "$((SECONDS - start))"
  return "$status"
}

# The folders and files `npm run build` compiles from; dist/.built marks when it last did.
build_inputs=(api provider emulator tsconfig.json package.json package-lock.json)

# build_if_stale: `npm run build` unless dist/ was built after the last change to any of its
# inputs (a warm rerun then spends no time in tsc). The mark is taken when the build starts,
# so a source saved during the build makes the next run build again.
build_if_stale() {
  local changed
  if [ -f dist/.built ]; then
    changed=$(find "${build_inputs[@]}" -newer dist/.built -print -quit 2>/dev/null)
    if [ -z "$changed" ]; then
      node scripts/link-self.js # what the build's prebuild does, in case npm ci removed the link
      echo "dist/ is newer than every source (${build_inputs[*]}): nothing to compile"
      return 0
    fi
    echo "$changed changed since the last build"
  fi
  mkdir -p dist
  touch dist/.built.next
  run_long "npm run build" npm run --silent build
  mv -f dist/.built.next dist/.built
}
