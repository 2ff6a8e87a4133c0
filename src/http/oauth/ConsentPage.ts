import { ServiceName } from "../../domain/Service.ts"
import type { ConsentRequest } from "../../services/OAuthServer.ts"

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" })[c]!)

const style = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1b1f24}
main{max-width:30rem;margin:2rem auto;padding:1.5rem 2rem;background:#fff;border:1px solid #c9ced6;border-radius:8px}
h1{font-size:1.4rem;margin-top:0}
label{display:block;font-weight:600;margin-top:1rem}
input{box-sizing:border-box;width:100%;padding:.5rem;font:inherit;border:1px solid #6b7480;border-radius:4px}
input:focus,button:focus{outline:3px solid #1d5fd1;outline-offset:2px}
.actions{display:flex;gap:.75rem;margin-top:1.5rem}
button{font:inherit;padding:.55rem 1.1rem;border-radius:4px;border:1px solid #1b1f24;cursor:pointer}
.allow{background:#1d5fd1;border-color:#1d5fd1;color:#fff}
.deny{background:#fff;color:#1b1f24}
.alert{border-left:4px solid #b3261e;background:#fdecea;padding:.5rem .75rem}
.note{font-size:.9rem;color:#4a525c}
`

const page = (title: string, content: string) =>
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(ServiceName)}</title>
<style>${style}</style>
</head>
<body>
<main>
${content}
</main>
</body>
</html>
`

/**
 * The sign-in and consent form: one page, no script, no cookies. The form carries only the opaque
 * handle of the pending request; the user's decision is one of two submit buttons.
 */
export const consentPage = (consent: ConsentRequest, action: string, error?: string): string => {
  const name = escapeHtml(consent.clientName)
  const site = consent.clientUri === undefined
    ? ""
    : ` (it gives its website as ${escapeHtml(new URL(consent.clientUri).host)})`
  const alert = error === undefined ? "" : `<p class="alert" role="alert" id="sign-in-error">${escapeHtml(error)}</p>\n`
  const describedBy = error === undefined ? "" : ` aria-describedby="sign-in-error"`
  return page(
    `Connect ${consent.clientName}`,
    `<h1>Connect ${name}</h1>
<p>An application calling itself <strong>${name}</strong>${site} asks to use the ${escapeHtml(ServiceName)}
MCP server on your behalf.</p>
<ul>
<li>It will be able to call the regulatory data tools and the enterprise tools as you
(scope <code>${escapeHtml(consent.scopes.join(" "))}</code>, for <code>${escapeHtml(consent.resource)}</code>).
Paid tools still use your plan or credits.</li>
<li>After you decide, your browser returns to <strong>${escapeHtml(consent.redirectOrigin)}</strong>.</li>
</ul>
${alert}<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="handle" value="${escapeHtml(consent.handle)}">
<label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="username" required${describedBy}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${describedBy}>
<div class="actions">
<button class="allow" type="submit" name="decision" value="allow">Sign in and allow</button>
<button class="deny" type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</div>
</form>
<p class="note">Only allow applications you started yourself. You can ask the operator to end this connection at any time.</p>`
  )
}

/** Shown instead of redirecting when the request cannot be trusted to go back to the application. */
export const errorPage = (description: string): string =>
  page(
    "Sign-in request not accepted",
    `<h1>This sign-in request cannot continue</h1>
<p role="alert">${escapeHtml(description)}</p>
<p>Start again from the application you were connecting.</p>`
  )
