"""The public API (docs/api.md, issue #47): personal access tokens with scopes (`scopes`,
`models`, `tokens`), third-party apps' OAuth 2 tokens (`oauth`; the consent page and the
OAuth endpoints, `consent`; registering an app, `oauth_admin`), their limits (`limits`)
and the open streams' slots (`slots`), the bearer check every endpoint runs (`auth`),
the JSON errors (`errors`), the endpoints by concern (`endpoints/`), the NinjaAPI that
assembles them and serves the OpenAPI 3.1 description (`site`), and the pages a person
reads: the token settings and the API's reference (`pages`)."""
