import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { minimalClassificationPayload } from "../test/fixtures/documents/classification.ts"
import { keysInDataDir } from "../test/support/TestStore.ts"
import { compare } from "./lib/load.ts"
import { startBareServer, startService } from "./lib/processes.ts"

/**
 * What a download link costs: `GET /pdf/files/{id}` (token hash lookup, expiry check, file read,
 * the global middleware) against a bare node:http server sending the same PDF with the same headers.
 * The document is rendered once over MCP (`create_classification_pdf`, draft) with an API key made
 * by the keys CLI in a throw-away DATA_DIR; no upstream is contacted.
 */
export const run = async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "bench-mcp-documents-"))
  const created = await keysInDataDir(dataDir)("create", "--label", "bench")
  const key = /api key: (\S+)/.exec(created)![1]!
  const service = await startService({ DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: "0", LOG_LEVEL: "none" })
  let bare: Awaited<ReturnType<typeof startBareServer>> | undefined
  try {
    const response = await fetch(`${service.url}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${key}`,
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "create_classification_pdf"
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "create_classification_pdf",
          arguments: { payload: minimalClassificationPayload, draft: true },
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": { name: "bench", version: "0" }
          }
        }
      })
    })
    const link = (await response.json()).result?.structuredContent
    if (link?.url === undefined) throw new Error("create_classification_pdf returned no link")
    const path = new URL(link.url).pathname
    const download = await fetch(`${service.url}${path}`)
    const bytes = new Uint8Array(await download.arrayBuffer())
    bare = await startBareServer(bytes, {
      "content-type": "application/pdf",
      "content-disposition": download.headers.get("content-disposition")!,
      "x-render-warnings": download.headers.get("x-render-warnings")!,
      "cache-control": "private, no-store"
    })
    const downloads = await compare({ url: `${service.url}${path}` }, { url: bare.url })
    return {
      description: `GET /pdf/files/{id} (${bytes.byteLength} bytes, classification draft) vs a bare node:http ` +
        "server sending the same bytes and headers",
      goal: "informational: the cost of the link path (hash lookup, expiry check, file read, global middleware) " +
        "over bare node:http; a link is typically fetched once per render",
      pdfBytes: bytes.byteLength,
      downloads
    }
  } finally {
    await bare?.stop()
    await service.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
