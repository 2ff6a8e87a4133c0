import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client"
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { Layer } from "effect"
import type { Principal } from "../../../src/domain/Principal.ts"
import * as Auth from "../../../src/services/Auth.ts"
import { bearers, principals } from "../Principals.ts"
import type { RunningServer } from "../TestServer.ts"

/** A second API key of another account, and an enclave service acting on a named workspace. */
export const otherBearers = {
  otherKey: "svc_live_test_other_account_31",
  service: "svc_service_test_enclave_52"
} as const

export const workspacePrincipals: Record<string, Principal> = {
  ...principals,
  [otherBearers.otherKey]: { _tag: "ApiKey", keyId: "key_other", status: "active", plan: "enterprise" },
  [otherBearers.service]: { _tag: "Service", subject: "svc-batch", entitlements: ["mcp"], workspace: "acme" }
}

export const workspaceAuth: Layer.Layer<Auth.Auth> = Auth.layerFixed(workspacePrincipals)

export interface ToolClient {
  readonly era: string
  /** `tools/call`: the JSON the tool answered, or the error text when `isError`. */
  readonly call: (name: string, args: unknown) => Promise<{ readonly isError: boolean; readonly body: any; raw: any }>
  readonly listTools: () => Promise<ReadonlyArray<{ readonly name: string; readonly inputSchema: unknown }>>
  readonly close: () => Promise<void>
}

const info = { name: "workspace-test", version: "1.0.0" }

const wrap = (era: string, client: ModernClient | LegacyClient): ToolClient => ({
  era,
  call: async (name, args) => {
    const raw: any = await client.callTool({ name, arguments: args as Record<string, unknown> })
    const text: string = raw.content?.[0]?.text ?? ""
    const isError = raw.isError === true
    return { isError, body: isError ? text : JSON.parse(text), raw }
  },
  listTools: async () => {
    const tools: Array<{ name: string; inputSchema: unknown }> = []
    let cursor: string | undefined
    do {
      const page: any = await client.listTools(cursor === undefined ? {} : { cursor })
      tools.push(...page.tools)
      cursor = page.nextCursor
    } while (cursor !== undefined)
    return tools
  },
  close: () => client.close()
})

const optionsFor = (bearer: string | undefined) =>
  bearer === undefined ? {} : { requestInit: { headers: { authorization: `Bearer ${bearer}` } } }

/** Real SDK clients of both protocol eras, with a bearer (or none). */
export const connectBoth = async (server: RunningServer, bearer: string | undefined = bearers.apiKey) => {
  const url = new URL(`${server.url}/mcp`)
  const options = optionsFor(bearer)
  const modern = new ModernClient(info, { versionNegotiation: { mode: { pin: "2026-07-28" } } })
  await modern.connect(new ModernTransport(url, options))
  const legacy = new LegacyClient(info)
  await legacy.connect(new LegacyTransport(url, options))
  return [wrap("2026-07-28", modern), wrap("2025-11-25", legacy)] as const
}

/** One 2026-07-28 client (the isolation checks run per workspace, not per era). */
export const connectModern = async (server: RunningServer, bearer: string | undefined) => {
  const client = new ModernClient(info, { versionNegotiation: { mode: { pin: "2026-07-28" } } })
  await client.connect(new ModernTransport(new URL(`${server.url}/mcp`), optionsFor(bearer)))
  return wrap("2026-07-28", client)
}
