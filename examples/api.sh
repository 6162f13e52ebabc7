# Shell helpers the guides use (bash, with curl and node). Load them with
#   . examples/api.sh
# after setting CLIENT_ID and CLIENT_SECRET to the credentials `npm start` printed.
#
# api METHOD PATH [BODY] [curl options...]
#   Calls $API$PATH with HTTP Basic credentials and prints the answer. BODY is JSON; `-` reads it
#   from standard input (a here-document). Curl options follow, e.g. -H "Idempotency-Key: $(new_key)". When the answer is not 2xx, prints the method, path,
#   status and error body to standard error and fails, so a shell running with `set -e` stops at
#   the failed step instead of going on with an empty id.
# agent_api METHOD PATH [BODY] [curl options...]
#   The same with an agent's access token ($AGENT_TOKEN) as the Bearer credential.
# field PATH
#   Prints one field of the JSON on standard input (`id`, `data.0.id`, `deviceCode.code`); fails
#   when the answer has no such field.
# wait_for PATH FIELD VALUE [SECONDS]
#   Repeats GET PATH until FIELD of the answer is VALUE (every half second, for up to SECONDS, 30
#   by default) and prints that answer; fails with the last answer otherwise. For work that the
#   server's background worker finishes a moment after the request that caused it.
# new_key
#   A fresh UUID, for an Idempotency-Key header.

: "${CLIENT_ID:?set CLIENT_ID and CLIENT_SECRET to the API credentials npm start printed}"
: "${CLIENT_SECRET:?set CLIENT_ID and CLIENT_SECRET to the API credentials npm start printed}"
API=${API:-http://localhost:3000/api/2025-10-13}

_corridor_call() {
  local auth=$1 method=$2 path=$3 body='' out status
  shift 3
  # A body is JSON or `-`; what starts with another `-` is already a curl option.
  if [ $# -gt 0 ] && { [ "$1" = - ] || [ "${1#-}" = "$1" ]; }; then
    body=$1
    shift
  fi
  if [ "$body" = - ]; then body=$(cat); fi
  local args=(-sS -X "$method" -w '\n%{http_code}' "$@")
  if [ -n "$body" ]; then args+=(-H 'content-type: application/json' --data-binary "$body"); fi
  if [ "$auth" = basic ]; then
    out=$(curl "${args[@]}" -u "$CLIENT_ID:$CLIENT_SECRET" "$API$path") || return 1
  else
    out=$(curl "${args[@]}" -H "authorization: Bearer ${AGENT_TOKEN:?set AGENT_TOKEN}" "$API$path") || return 1
  fi
  status=${out##*$'\n'}
  out=${out%$'\n'*}
  if [ "$status" -lt 200 ] || [ "$status" -gt 299 ]; then
    printf '%s %s answered %s: %s\n' "$method" "$path" "$status" "$out" >&2
    return 1
  fi
  printf '%s\n' "$out"
}

api() { _corridor_call basic "$@"; }
agent_api() { _corridor_call bearer "$@"; }

field() {
  node -e '
    let text = "";
    process.stdin.on("data", (d) => (text += d)).on("end", () => {
      let value;
      try {
        value = JSON.parse(text);
      } catch {
        console.error(`not a JSON answer: ${text.trim() || "(empty)"}`);
        process.exit(1);
      }
      for (const key of process.argv[1].split(".")) value = value == null ? undefined : value[key];
      if (value === undefined || value === null) {
        console.error(`no ${process.argv[1]} in the answer: ${text.trim()}`);
        process.exit(1);
      }
      console.log(typeof value === "object" ? JSON.stringify(value) : String(value));
    });
  ' "$1"
}

wait_for() {
  local path=$1 name=$2 want=$3 tries=$((${4:-30} * 2)) out got
  while :; do
    out=$(api GET "$path") || return 1
    got=$(printf '%s' "$out" | field "$name" 2>/dev/null) || got=''
    if [ "$got" = "$want" ]; then
      printf '%s\n' "$out"
      return 0
    fi
    tries=$((tries - 1))
    if [ "$tries" -le 0 ]; then
      printf 'GET %s: %s is still %s, not %s: %s\n' "$path" "$name" "${got:-absent}" "$want" "$out" >&2
      return 1
    fi
    sleep 0.5
  done
}

new_key() { node -p 'crypto.randomUUID()'; }
