// The peer of our TypeScript text: the npm package `json-schema-to-typescript`, run on schemas
// given on stdin as a JSON array; prints a JSON array with, for each schema, its TypeScript text
// (a string) or {"error": "..."}. Used by `crosscheck/examples/token_savings.rs`.
//
// Setup (once): npm install --prefix /some/dir json-schema-to-typescript
// Run:          NODE_PATH=/some/dir/node_modules node crosscheck/peer/json2ts.cjs < schemas.json
//
// Options: the package's defaults, except that the banner comment ("This file was automatically
// generated...") is left out, so the text is only the type.
"use strict";
const { compile } = require("json-schema-to-typescript");

async function main() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  const schemas = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const out = [];
  for (const schema of schemas) {
    try {
      out.push(await compile(schema, "Root", { bannerComment: "" }));
    } catch (e) {
      out.push({ error: String(e && e.message ? e.message : e) });
    }
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
