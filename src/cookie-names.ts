/**
 * Cookie names that are named for auth yet hold no session nor credential: what a sign-in flow
 * keeps between its steps (`github_oauth_state`, `google_code_verifier`,
 * `next-auth.pkce.code_verifier`, `next-auth.callback-url`, a return-to), an error, a status or a
 * message it reports back (`auth_error`, maxun's `airtable_auth_status` and
 * `airtable_auth_message`), or a CSRF token (`authjs.csrf-token`, `XSRF-TOKEN`, which a script
 * must read to send it back in a header). A request carrying one is not signed in, and a script
 * reading one is handed no session.
 */
export const FLOW_COOKIE_NAME = /state|verifier|pkce|nonce|callback|redirect|return_?to|error|status|message|csrf|xsrf/i;
