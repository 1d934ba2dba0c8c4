// Reads a built site's `_redirects` and `_headers` and the repository's netlify.toml with
// Netlify's own parsers and prints one JSON report on stdout (tests/netlify_config.rs asserts
// on it). The parsers collect problems in lists instead of throwing; every entry is reported.
//
//   node validate.mjs SITE_DIR NETLIFY_TOML   (SITE_DIR is a build's site/ directory)
import { dirname, join, resolve } from 'node:path';

import { resolveConfig } from '@netlify/config';
import { parseAllHeaders } from '@netlify/headers-parser';
import { parseAllRedirects } from '@netlify/redirect-parser';

const [site, toml] = process.argv.slice(2).map((p) => p && resolve(p));
if (!site || !toml) {
  console.error('usage: node validate.mjs SITE_DIR NETLIFY_TOML');
  process.exit(2);
}

const messages = (errors) => errors.map((e) => e.message);

// `minimal: false` keeps what Netlify derives from each rule (`proxy`, `path`).
const redirects = await parseAllRedirects({ redirectsFiles: [join(site, '_redirects')], minimal: false });
const headers = await parseAllHeaders({ headersFiles: [join(site, '_headers')], minimal: true });
const tomlRedirects = await parseAllRedirects({ netlifyConfigPath: toml, minimal: false });
const tomlHeaders = await parseAllHeaders({ netlifyConfigPath: toml, minimal: true });

// The configuration as a Netlify build resolves it: netlify.toml validated against Netlify's
// schema, offline, with the routing files of the publish directory merged in. SITE_DIR stands
// for the checkout's site/: the repository root is its parent, so a netlify.toml publishing
// `site` publishes the files under test. Problems are warnings in its logs, not exceptions.
const config = async () => {
  try {
    const root = dirname(site);
    const { config, logs } = await resolveConfig({
      config: toml,
      repositoryRoot: root,
      cwd: root,
      context: 'production',
      branch: 'main',
      offline: true,
      buffer: true,
    });
    return {
      errors: logs.stderr,
      build: config.build,
      redirects: config.redirects.length,
      headers: config.headers.length,
    };
  } catch (error) {
    return { errors: [error.message] };
  }
};
const resolved = await config();

const report = {
  redirects: {
    errors: messages(redirects.errors),
    count: redirects.redirects.length,
    rules: redirects.redirects,
  },
  headers: {
    errors: messages(headers.errors),
    count: headers.headers.length,
    blocks: headers.headers,
  },
  netlify_toml: {
    errors: [...messages(tomlRedirects.errors), ...messages(tomlHeaders.errors), ...resolved.errors],
    redirects: tomlRedirects.redirects,
    headers: tomlHeaders.headers,
    build: resolved.build,
    merged: { redirects: resolved.redirects, headers: resolved.headers },
  },
};
process.stdout.write(JSON.stringify(report));
