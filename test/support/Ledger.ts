import { Effect } from "effect"
import type { CreditsShape } from "../../src/services/Credits.ts"

/** An account's balance and the documents it paid for, as the billing tests compare them before and after. */
export const ledgerOf = (credits: CreditsShape, account: string) =>
  Effect.runPromise(Effect.all({
    balance: credits.balance(account),
    spent: Effect.map(credits.usage(account), (usage) => usage.spent)
  }))
