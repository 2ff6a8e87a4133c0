import { Either } from "effect"
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { type DocumentSlug, DocumentSlugs, MaxPayloadBytes } from "../domain/Documents.ts"
import { validatePayload } from "../domain/documents/Contract.ts"
import { contracts } from "../domain/documents/index.ts"
import { renderDocument } from "./Document.ts"

/**
 * A rendering backend: the in-process renderer behind `POST /render/<slug>[?draft=1]`, for
 * deployments that render on other machines (`RENDER_BACKEND_URL`). It receives a payload the
 * service already validated, validates it again, answers `application/pdf` with
 * `X-Render-Warnings`, and keeps and logs nothing.
 */
const readBody = (request: IncomingMessage, limit: number) =>
  new Promise<Buffer | undefined>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    request.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        resolve(undefined)
        request.resume()
      } else chunks.push(chunk)
    })
    request.on("end", () => resolve(size > limit ? undefined : Buffer.concat(chunks)))
    request.on("error", reject)
  })

/** The wire format between the service (`Renderer.makeRemote`) and a rendering backend. */
export const BackendProtocol = {
  path: (slug: DocumentSlug, draft: boolean) => `/render/${slug}${draft ? "?draft=1" : ""}`,
  warningsHeader: "x-render-warnings"
} as const

const slugs = new Set<string>(DocumentSlugs)

export const startRenderBackend = async (options: { readonly port: number; readonly host: string }) => {
  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://backend")
    const slug = /^\/render\/([a-z-]+)$/.exec(url.pathname)?.[1]
    if (request.method !== "POST" || slug === undefined || !slugs.has(slug)) {
      return void response.writeHead(404).end()
    }
    const contract = contracts[slug as keyof typeof contracts]
    try {
      const body = await readBody(request, 2 * MaxPayloadBytes)
      if (body === undefined) return void response.writeHead(413, { connection: "close" }).end()
      const sent = JSON.parse(body.toString("utf8")) as { values?: unknown; warnings?: ReadonlyArray<string> }
      const valid = validatePayload(contract, sent.values)
      if (Either.isLeft(valid)) return void response.writeHead(400).end()
      const rendered = await renderDocument(contract, {
        values: valid.right.values,
        warnings: [...(sent.warnings ?? []), ...valid.right.warnings]
      }, { draft: url.searchParams.get("draft") === "1", now: new Date() })
      response.writeHead(200, {
        "content-type": "application/pdf",
        [BackendProtocol.warningsHeader]: String(rendered.warnings.length)
      }).end(rendered.bytes)
    } catch {
      if (!response.headersSent) response.writeHead(400).end()
    }
  })
  await new Promise<void>((resolve) => server.listen(options.port, options.host, resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${options.host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
