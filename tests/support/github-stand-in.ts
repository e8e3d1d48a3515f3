import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './processes';

export interface GitHubPerson {
  id: number;
  login: string;
  name: string;
  emails: { email: string; primary: boolean; verified: boolean }[];
}

/**
 * A local stand-in for GitHub's OAuth token endpoint and its /user and /user/emails API: it checks the
 * client secret, the redirect URI and the PKCE verifier against the challenge of the authorize step.
 */
export async function startGitHubStandIn(clientId: string, clientSecret: string) {
  const grants = new Map<string, { challenge: string; redirectUri: string; person: GitHubPerson }>();
  const tokens = new Map<string, GitHubPerson>();
  const received: Record<string, string>[] = [];
  /** Every token handed out (access and refresh), for tests that look for them where they must not be. */
  const issued: string[] = [];

  const readForm = async (req: IncomingMessage) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    return Object.fromEntries(new URLSearchParams(body));
  };
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      const form = await readForm(req);
      received.push(form);
      const grant = grants.get(form.code ?? '');
      const verifierHash = createHash('sha256')
        .update(form.code_verifier ?? '')
        .digest('base64url');
      if (form.client_id !== clientId || form.client_secret !== clientSecret)
        return json(res, 401, { error: 'invalid_client' });
      if (!grant || grant.redirectUri !== form.redirect_uri || grant.challenge !== verifierHash) {
        return json(res, 400, { error: 'invalid_grant', error_description: 'bad code, redirect or verifier' });
      }
      grants.delete(form.code!);
      const token = `gho_${Math.random().toString(36).slice(2)}`;
      const refresh = `ghr_${Math.random().toString(36).slice(2)}`;
      tokens.set(token, grant.person);
      issued.push(token, refresh);
      // As GitHub answers for an app with expiring user tokens: a refresh token too.
      return json(res, 200, {
        access_token: token,
        token_type: 'bearer',
        scope: 'read:user,user:email',
        expires_in: 28800,
        refresh_token: refresh,
        refresh_token_expires_in: 15897600,
      });
    }
    const person = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (!person) return json(res, 401, { message: 'Bad credentials' });
    if (url.pathname === '/api/user')
      return json(res, 200, { id: person.id, login: person.login, name: person.name, avatar_url: null });
    if (url.pathname === '/api/user/emails') return json(res, 200, person.emails);
    json(res, 404, { message: 'Not Found' });
  };
  // A client gone mid-request (its body unread) ends that request only.
  const server: Server = createServer((req, res) => void serve(req, res).catch(() => res.destroy()));
  const base = `http://127.0.0.1:${await listenOnLoopback(server)}`;

  return {
    env: {
      GITHUB_CLIENT_ID: clientId,
      GITHUB_CLIENT_SECRET: clientSecret,
      GITHUB_AUTHORIZE_URL: `${base}/login/oauth/authorize`,
      GITHUB_TOKEN_URL: `${base}/login/oauth/access_token`,
      GITHUB_API_URL: `${base}/api`,
    },
    received,
    issued,
    /** What GitHub does when the person clicks "Authorize": remembers the challenge, hands out a code. */
    authorize(authorizeUrl: URL, person: GitHubPerson): string {
      const code = `code_${Math.random().toString(36).slice(2)}`;
      grants.set(code, {
        challenge: authorizeUrl.searchParams.get('code_challenge')!,
        redirectUri: authorizeUrl.searchParams.get('redirect_uri')!,
        person,
      });
      return code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
