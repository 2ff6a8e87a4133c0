/**
 * The request pair the MCP benchmarks compare: `tools/call get_eccn` (2026-07-28, one request, no
 * session) and its REST twin, both under the same bearer so neither comes from the anonymous cache.
 */
export const getEccnRequests = (serviceUrl: string, bearer: string, eccn: string) => {
  const authorization = `Bearer ${bearer}`
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name: "get_eccn",
      arguments: { eccn },
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}
      }
    }
  })
  const headers = {
    authorization,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
    "mcp-name": "get_eccn"
  }
  const restUrl = `${serviceUrl}/api/eccn/${eccn}?format=json`
  return {
    authorization,
    restUrl,
    mcp: { url: `${serviceUrl}/mcp`, options: { method: "POST" as const, headers, body } },
    rest: { url: restUrl, options: { headers: { authorization } } }
  }
}

/** A cold part 774 may outlast the interactive upstream deadline (503): waits until it is stored. */
export const waitUntilStored = async (restUrl: string, authorization: string): Promise<Response> => {
  let warm = await fetch(restUrl, { headers: { authorization } })
  for (let attempt = 0; warm.status === 503 && attempt < 30; attempt++) {
    await warm.arrayBuffer()
    await new Promise((resolve) => setTimeout(resolve, 1000))
    warm = await fetch(restUrl, { headers: { authorization } })
  }
  return warm
}
