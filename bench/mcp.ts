import { compare } from "./lib/load.ts"
import { startService } from "./lib/processes.ts"

/**
 * MCP `tools/call` against its REST twin on the same server, same data, same credential (so
 * neither is served from the anonymous response cache): the cost of the JSON-RPC envelope,
 * header validation, argument decoding and result encoding over the HttpApi route. The tool is
 * `get_regulatory_status` (twin `GET /api/regulatory-status`): `get_eccn` is not in the catalogue
 * because the CCL service has not landed.
 */
const bearer = "svc_live_bench"

export const run = async () => {
  const service = await startService(
    { RATE_LIMIT_PER_MINUTE: "0", LOG_LEVEL: "warn", BENCH_BEARER: bearer },
    "bench/lib/mcp-server.ts"
  )
  try {
    const authorization = `Bearer ${bearer}`
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "get_regulatory_status",
        arguments: {},
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {}
        }
      }
    })
    const mcpHeaders = {
      authorization,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "get_regulatory_status"
    }
    const probe = await fetch(`${service.url}/mcp`, { method: "POST", headers: mcpHeaders, body })
    const answer = await probe.json()
    if (answer.result?.structuredContent === undefined) throw new Error(`tools/call failed: ${JSON.stringify(answer)}`)
    const result = await compare(
      { url: `${service.url}/mcp`, options: { method: "POST", headers: mcpHeaders, body } },
      { url: `${service.url}/api/regulatory-status`, options: { headers: { authorization } } }
    )
    const ratio = (a: number, b: number) => Math.round((a / b) * 1000) / 1000
    return {
      description: "tools/call get_regulatory_status (2026-07-28, API key) vs GET /api/regulatory-status " +
        "(same key, no response cache) on one server, 32 connections, alternating rounds",
      goal: "MCP latency and throughput within 1.5 x REST",
      mcp: result.candidate,
      rest: result.baseline,
      throughputRatio: result.throughputRatio,
      p50Ratio: ratio(result.candidate.p50Ms, result.baseline.p50Ms),
      p99Ratio: ratio(result.candidate.p99Ms, result.baseline.p99Ms)
    }
  } finally {
    await service.stop()
  }
}
