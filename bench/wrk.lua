-- One wrk thread = one connection = one client playing its own list of
-- requests in order (wrk -t N -c N). Each thread reads its list from
-- <dir>/requests-<n>.txt: "METHOD PATH TOKEN BODY" per line; it stops
-- (repeating a harmless GET) if the list runs out, and says so.
local counter = 0
local threads = {}

function setup(thread)
  thread:set("index", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

function init(args)
  local dir = args[1]
  requests, position, exhausted = {}, 1, 0
  for line in io.lines(dir .. "/requests-" .. index .. ".txt") do
    local method, path, token, body = line:match("^(%S+) (%S+) (%S+) ?(.*)$")
    local headers = {["Content-Type"] = "application/json"}
    if token ~= "-" then headers["Authorization"] = "Bearer " .. token end
    if body == "" then body = nil end
    table.insert(requests, wrk.format(method, path, headers, body))
  end
  fallback = requests[#requests]
  statuses, sample = {}, ""
end

-- The list advances on each response, not on each request() call: wrk may
-- call request() to check the script without sending anything, and one
-- connection per thread means a response always answers the last request.
function request()
  if position > #requests then
    exhausted = exhausted + 1
    return fallback
  end
  return requests[position]
end

-- A non-2xx answer is counted by status, and the first one's body kept as a sample.
function response(status, headers, body)
  position = position + 1
  if status < 200 or status >= 300 then
    statuses[status] = (statuses[status] or 0) + 1
    if sample == "" then sample = string.sub(body or "", 1, 300) end
  end
end

function done(summary, latency, requests)
  local exhausted_total, counts, first = 0, {}, ""
  for _, thread in ipairs(threads) do
    exhausted_total = exhausted_total + (thread:get("exhausted") or 0)
    for status, n in pairs(thread:get("statuses") or {}) do counts[status] = (counts[status] or 0) + n end
    if first == "" then first = thread:get("sample") or "" end
  end
  for status, n in pairs(counts) do io.write(string.format("STATUS %d %d\n", status, n)) end
  io.write("SAMPLE " .. string.gsub(first, "\n", " ") .. "\n")
  io.write(string.format(
    'RESULT {"requests": %d, "seconds": %.3f, "p50_ms": %.3f, "p99_ms": %.3f, "non_2xx": %d, "socket_errors": %d, "exhausted": %d}\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    exhausted_total))
end
