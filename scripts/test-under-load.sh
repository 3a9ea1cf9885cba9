#!/usr/bin/env bash
# Runs the test suite with two CPU-bound processes beside it, as a busy CI runner would (issue 34): a test
# that fails here depends on how busy the machine is, which is a bug in the test. Arguments go to vitest
# (`bash scripts/test-under-load.sh test/redis` runs one folder under the same load).
set -euo pipefail
cd "$(dirname "$0")/.."

burners=()
stop_burners() {
  for pid in "${burners[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${burners[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap stop_burners EXIT INT TERM

# The pinned Node (npm exec puts node_modules/.bin first), so the burners need nothing the suite lacks.
node="$(npm exec -c 'command -v node')"
for _ in 1 2; do
  "$node" -e 'for (;;);' &
  burners+=("$!")
done
echo "test-under-load: 2 CPU-bound processes (${burners[*]}) beside the suite"

npm test -- "$@"
