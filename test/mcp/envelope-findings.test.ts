import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { JsonText, resultResponse, resultResponseBytes, resultText, serializeResult } from "../../src/mcp/JsonRpc.ts"
import { modernMeta, rawPost, startFixtureServer } from "../support/mcp/McpTestApp.ts"
import { bearers } from "../support/Principals.ts"
import type { RunningServer } from "../support/TestServer.ts"

/** Method names that exist on every plain object: client input must not find them. */
const prototypeNames = ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf", "isPrototypeOf"]

describe("MCP methods named after Object.prototype members (issue 19 finding 1)", () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startFixtureServer()
  })
  afterAll(() => server.close())

  it.each(prototypeNames)("%s is -32601 on /mcp and /mcp/pro in both eras, before authentication", async (name) => {
    for (const path of ["/mcp", "/mcp/pro"]) {
      const legacy = await rawPost(server, { jsonrpc: "2.0", id: 3, method: name }, {}, path)
      expect(legacy.status).toBe(200)
      expect((await legacy.json()).error).toEqual({ code: -32601, message: `Method not found: ${name}` })
      const modern = await rawPost(
        server,
        { jsonrpc: "2.0", id: 4, method: name, params: { _meta: modernMeta } },
        { "mcp-protocol-version": "2026-07-28", "mcp-method": name },
        path
      )
      expect(modern.status).toBe(404)
      expect(await modern.json()).toEqual({
        jsonrpc: "2.0",
        id: 4,
        error: { code: -32601, message: `Method not found: ${name}` }
      })
    }
  })
})

describe("JSON-RPC ids are echoed verbatim (issue 19 finding 7)", () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startFixtureServer()
  })
  afterAll(() => server.close())

  // the marker the old serializer searched the text for, and strings shaped like JSON around it
  const crafted = ["\u0000json-text\u0000", "\"structuredContent\":{}", "},\"id\":1,{", "\\u0000json-text\\u0000"]

  it.each(crafted)("a tools/call with id %j answers that id and the real result", async (id) => {
    const body = {
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "lookup_term", arguments: { term: "export" } }
    }
    const response = await rawPost(server, body, { authorization: `Bearer ${bearers.apiKey}` })
    const reply = await response.json()
    expect(reply.id).toBe(id)
    expect(reply.result.structuredContent).toMatchObject({ term: "export", citation: "15 CFR 734.13(a)" })
  })

  it("the serializer places pre-serialized content as structuredContent whatever the id holds", () => {
    const id = "\u0000json-text\u0000"
    const text = serializeResult(id, { content: [], structuredContent: new JsonText("{\"a\":1}") })
    expect(JSON.parse(text)).toEqual({ jsonrpc: "2.0", id, result: { content: [], structuredContent: { a: 1 } } })
    expect(JSON.parse(serializeResult(1, { structuredContent: new JsonText("[2]") }))).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { structuredContent: [2] }
    })
    expect(JSON.parse(serializeResult(2, { nested: { inner: new JsonText("3") } }))).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: { nested: { inner: 3 } }
    })
  })

  it("a result with pre-serialized members is the text JSON.stringify gives the plain result, structuredContent last", () => {
    const structured = { eccn: "5A002", text: "quote \" and \u2028 and ü" }
    const json = JSON.stringify(structured)
    const content = [{ type: "text", text: json }]
    const meta = { "svc/date": "2026-01-01" }
    const pre = serializeResult(7, {
      resultType: "complete",
      content: new JsonText(JSON.stringify(content)),
      structuredContent: new JsonText(json),
      skipped: undefined,
      _meta: meta
    })
    const plain = JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      result: { resultType: "complete", content, _meta: meta, structuredContent: structured }
    })
    expect(pre).toBe(plain)
    const failure = { content: [{ type: "text", text: "no" }], structuredContent: { a: 1 }, isError: true }
    expect(serializeResult("x", failure)).toBe(JSON.stringify({ jsonrpc: "2.0", id: "x", result: failure }))
  })

  it("a result's bytes in their envelope are the UTF-8 of its text in the envelope, whatever the id", () => {
    const result = resultText({
      content: new JsonText("[{\"text\":\"ü \\u2028 “q”\"}]"),
      structuredContent: new JsonText("{}")
    })
    const bytes = new TextEncoder().encode(result)
    for (const id of [...crafted, 0, -1.5, "", "ü“"]) {
      expect(new TextDecoder().decode(resultResponseBytes(id, bytes))).toBe(resultResponse(id, result))
    }
  })

  // a memoized answer's result is written once and reused: every call must still read as a fresh one
  it.each([["legacy", {}], ["2026-07-28", { "mcp-protocol-version": "2026-07-28" }]] as const)(
    "a memoized tools/call result answers every id with the same result text (%s)",
    async (_era, eraHeaders) => {
      const texts: Array<string> = []
      for (const id of [1, ...crafted, 2]) {
        const params = { name: "lookup_term", arguments: { term: "export" } }
        const body = {
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: Object.keys(eraHeaders).length === 0 ? params : { ...params, _meta: modernMeta }
        }
        const headers = Object.keys(eraHeaders).length === 0
          ? {}
          : { ...eraHeaders, "mcp-method": "tools/call", "mcp-name": "lookup_term" }
        const response = await rawPost(server, body, { authorization: `Bearer ${bearers.apiKey}`, ...headers })
        const text = await response.text()
        const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`
        expect(text.startsWith(head)).toBe(true)
        expect(JSON.stringify(JSON.parse(text))).toBe(text)
        expect(Number(response.headers.get("content-length"))).toBe(new TextEncoder().encode(text).byteLength)
        texts.push(text.slice(head.length))
      }
      expect(new Set(texts).size).toBe(1)
      expect(JSON.parse(texts[0]!.slice(0, -1))).toMatchObject({
        resultType: "complete",
        structuredContent: { term: "export" }
      })
    }
  )
})
