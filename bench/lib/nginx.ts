/**
 * The peer for serving files: nginx as packaged by Debian (`apt-get install nginx`), with its usual
 * settings for static files (sendfile, one worker per core, no access log), on a free port, serving
 * a folder. Returns null when nginx is not installed (bench/server.ts then uses a Node static server).
 */
import { spawn } from 'node:child_process';
import { access, mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';

const NGINX = '/usr/sbin/nginx';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function startNginx(work: string, root: string): Promise<{ url: string; pid?: number; stop: () => void } | null> {
  try {
    await access(NGINX);
  } catch {
    return null;
  }
  const prefix = join(work, 'nginx');
  await mkdir(join(prefix, 'temp'), { recursive: true });
  const port = await freePort();
  const conf = join(prefix, 'nginx.conf');
  await writeFile(
    conf,
    `worker_processes auto;
pid ${join(prefix, 'nginx.pid')};
error_log ${join(prefix, 'error.log')} warn;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  client_body_temp_path ${join(prefix, 'temp')};
  proxy_temp_path ${join(prefix, 'temp')};
  fastcgi_temp_path ${join(prefix, 'temp')};
  uwsgi_temp_path ${join(prefix, 'temp')};
  scgi_temp_path ${join(prefix, 'temp')};
  server {
    listen 127.0.0.1:${port};
    root ${root};
  }
}
`,
  );
  const child = spawn(NGINX, ['-p', prefix, '-c', conf, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  // Ready once it answers.
  for (let attempt = 0; ; attempt++) {
    try {
      await fetch(`${url}/`);
      break;
    } catch (error) {
      if (attempt > 100 || child.exitCode !== null) throw new Error(`nginx did not start: ${String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { url, pid: child.pid, stop: () => child.kill('SIGQUIT') };
}
