import type { ParseResult } from "effect"
import { Cause, Context, Effect, Either, Layer, Option, Schema } from "effect"
import * as DecodeIssues from "../domain/DecodeIssues.ts"
import { hasUsableCredential, type Principal } from "../domain/Principal.ts"
import { ErrorCode, JsonText, RpcError } from "./JsonRpc.ts"
import type * as Resource from "./Resource.ts"
import * as Tool from "./Tool.ts"

/** A tool bound to the services it needs: `call` takes raw JSON arguments and answers a CallToolResult. */
export interface BoundTool {
  readonly definition: Tool.Any
  /** The `tools/list` entry, derived once. */
  readonly listing: Record<string, unknown>
  readonly call: (args: unknown, caller: Principal) => Effect.Effect<Record<string, unknown>, RpcError>
}

export interface ReadResult {
  readonly contents: ReadonlyArray<Resource.TextContents>
  readonly ttlMs: number
}

export interface McpCatalogShape {
  /** The tools the principal may see and call, in catalogue order. */
  readonly tools: (principal: Principal) => ReadonlyArray<BoundTool>
  /** Every tool, enterprise included: for documents that describe the whole surface to the caller. */
  readonly allTools: ReadonlyArray<BoundTool>
  readonly resources: Effect.Effect<ReadonlyArray<Resource.ResourceInfo>, RpcError>
  readonly templates: ReadonlyArray<Resource.TemplateInfo>
  /** Freshness of lists: the shortest of the providers' content lifetimes. */
  readonly resourcesTtlMs: number
  readonly read: (uri: string) => Effect.Effect<ReadResult, RpcError>
  readonly pageSize: number
}

/** The tools and resources the MCP server offers. Deployments and tests differ by the layer they provide. */
export class McpCatalog extends Context.Tag("app/mcp/McpCatalog")<McpCatalog, McpCatalogShape>() {}

export interface CatalogOptions<T extends Tool.Any, P extends Resource.Any> {
  readonly tools: ReadonlyArray<T>
  readonly resources: ReadonlyArray<P>
  /** Entries per page of every list method. */
  readonly pageSize?: number
}

const textOf = (value: unknown): string =>
  typeof value === "string" ? value : typeof value === "object" && value !== null && "message" in value
    ? String(value.message)
    : String(value)

/** A domain failure as a sentence an agent can act on: a problem's title and detail, else its message. */
export const describeFailure = (error: unknown): string => {
  if (typeof error === "object" && error !== null && "detail" in error && typeof error.detail === "string") {
    const title = "title" in error && typeof error.title === "string" ? `${error.title}: ` : ""
    return `${title}${error.detail}`
  }
  return textOf(error)
}

const internal = (cause: Cause.Cause<unknown>, what: string) =>
  Effect.zipRight(
    Effect.logError(`${what} failed`, cause),
    Effect.fail(new RpcError(ErrorCode.InternalError, `Internal error while running ${what}`))
  )

const toolError = (message: string) => ({ content: [{ type: "text", text: message }], isError: true })

const invalidArguments = (issues: ReadonlyArray<DecodeIssues.DecodeIssue>) =>
  toolError(`Invalid arguments: ${DecodeIssues.summarize(issues, "arguments")}`)

const failureResult = (error: unknown) => {
  if (error instanceof Tool.InvalidArguments) return invalidArguments(error.issues)
  if (!(error instanceof Tool.StructuredFailure)) return toolError(describeFailure(error))
  const json = JSON.stringify(error.content)
  return {
    content: [{ type: "text", text: `${error.message}\n${json}` }],
    structuredContent: error.content,
    isError: true
  }
}

/** How a tool's value becomes its result: text as is, or the encoded value with its JSON text. */
const resultEncoder = (tool: Tool.Any) => {
  const output = tool.output
  const encodeValue = output._tag === "Text"
    ? (value: unknown) => Either.right({ content: [{ type: "text", text: output.render(value) }] })
    : (() => {
      const encode = Schema.encodeEither(output.schema)
      // encoding is pure and domain values are immutable: a value the service hands out again (a
      // memoized answer) keeps its encoding, which is most of the cost of a large result
      const encodings = new WeakMap<object, Record<string, unknown>>()
      return (value: unknown) => {
        const known = typeof value === "object" && value !== null ? encodings.get(value) : undefined
        if (known !== undefined) return Either.right(known)
        return Either.map(encode(value), (encoded) => {
          const json = JSON.stringify(encoded)
          // the text copy is escaped once too: as a JSON string it is as long as the value itself
          const content = new JsonText(JSON.stringify([{ type: "text", text: json }]))
          // frozen: the server then writes its response text once too
          const result = Object.freeze({ content, structuredContent: new JsonText(json) })
          if (typeof value === "object" && value !== null) encodings.set(value, result)
          return result
        })
      }
    })()
  return (value: unknown): Either.Either<Record<string, unknown>, ParseResult.ParseError> =>
    value instanceof Tool.Annotated
      ? Either.map(encodeValue(value.value), (result) => ({ ...result, _meta: value.meta }))
      : encodeValue(value)
}

const bindTool = (tool: Tool.Any, context: Context.Context<unknown>): BoundTool => {
  const decode = Schema.decodeUnknownEither(tool.input, { errors: "all", onExcessProperty: "error" })
  const encode = resultEncoder(tool)
  return {
    definition: tool,
    listing: Tool.describe(tool),
    call: (args, caller) => {
      const input = decode(args ?? {})
      if (Either.isLeft(input)) return Effect.succeed(invalidArguments(DecodeIssues.fromParseError(input.left)))
      // the catalogue's context holds every service its tools need (see `make`); the caller comes per call.
      // One merge of the three, not `Context.add` then `provide`: each of those copies the whole
      // catalogue context, on every call
      const run = tool.run(input.right) as Effect.Effect<unknown, unknown, unknown>
      const withCaller = Context.make(Tool.Caller, caller)
      return Effect.mapInputContext<unknown, unknown, unknown, never>(
        run,
        (parent) => Context.mergeAll(parent, context, withCaller)
      ).pipe(
        Effect.matchEffect({
          onFailure: (error) => Effect.succeed(failureResult(error)),
          // a result that does not match the tool's own output schema is a defect, not a tool error
          onSuccess: (value) => Either.match(encode(value), { onLeft: Effect.die, onRight: Effect.succeed })
        }),
        Effect.catchAllCause((cause) => internal(cause, `tool ${tool.name}`))
      )
    }
  }
}

const notFound = (uri: string) => new RpcError(ErrorCode.InvalidParams, `Resource not found: ${uri}`, 200, { uri })

const readFailure = (uri: string, error: unknown) =>
  new RpcError(ErrorCode.InternalError, `Resource ${uri} could not be read: ${describeFailure(error)}`, 200, { uri })

/** Builds the catalogue, binding each tool and resource family to the services it needs. */
export const make = <T extends Tool.Any, P extends Resource.Any>(
  options: CatalogOptions<T, P>
): Effect.Effect<McpCatalogShape, never, Tool.Requirements<T> | Resource.Requirements<P>> =>
  Effect.map(Effect.context<Tool.Requirements<T> | Resource.Requirements<P>>(), (context) => {
    const names = new Set<string>()
    for (const tool of options.tools) {
      if (names.has(tool.name)) throw new Error(`Duplicate MCP tool name ${tool.name}`)
      names.add(tool.name)
    }
    const bound = options.tools.map((tool) => bindTool(tool, context as Context.Context<unknown>))
    const free = bound.filter((tool) => !tool.definition.enterprise)
    const providers = options.resources
    const provide = <A, E>(effect: Effect.Effect<A, E, any>) => Effect.provide(effect, context) as Effect.Effect<A, E>
    const resources = Effect.map(
      Effect.forEach(providers, (provider) => provide(provider.list)),
      (lists) => lists.flat()
    ).pipe(
      Effect.catchAll((error) =>
        Effect.fail(
          new RpcError(ErrorCode.InternalError, `Resources could not be listed: ${describeFailure(error)}`)
        )
      ),
      Effect.catchAllDefect((defect) => internal(Cause.die(defect), "resources/list"))
    )
    const read = (uri: string): Effect.Effect<ReadResult, RpcError> =>
      Effect.gen(function*() {
        for (const provider of providers) {
          const contents = yield* provide(provider.read(uri)).pipe(
            Effect.mapError((error) => readFailure(uri, error))
          )
          if (Option.isSome(contents)) return { contents: [contents.value], ttlMs: provider.ttlMs }
        }
        return yield* Effect.fail(notFound(uri))
      }).pipe(
        Effect.catchAllDefect((defect) => internal(Cause.die(defect), "resources/read"))
      )
    return {
      tools: (principal) => hasUsableCredential(principal) ? bound : free,
      allTools: bound,
      resources,
      templates: providers.flatMap((provider) => provider.templates),
      resourcesTtlMs: providers.length === 0 ? 3_600_000 : Math.min(...providers.map((provider) => provider.ttlMs)),
      read,
      pageSize: options.pageSize ?? 50
    }
  })

export const layer = <T extends Tool.Any, P extends Resource.Any>(
  options: CatalogOptions<T, P>
): Layer.Layer<McpCatalog, never, Tool.Requirements<T> | Resource.Requirements<P>> =>
  Layer.effect(McpCatalog, make(options))
