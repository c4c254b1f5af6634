import { Writable } from 'node:stream';
import { AppLogger, createRootLogger } from './logging';

function capture(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

describe('the one logger', () => {
  it('writes JSON lines when stdout is not a terminal, with where the line comes from as `context`', () => {
    const out = capture();
    const logger = new AppLogger(createRootLogger({ logLevel: 'info' }, { pretty: false, destination: out.stream }));
    logger.log('Admin account ready', 'AdminBootstrap');
    const line = JSON.parse(out.text().trim());
    expect(line).toMatchObject({ level: 30, msg: 'Admin account ready', context: 'AdminBootstrap' });
  });

  it('writes readable lines on a terminal: time, level, [context] and message, no JSON', () => {
    const out = capture();
    const logger = new AppLogger(createRootLogger({ logLevel: 'info' }, { pretty: true, destination: out.stream }));
    logger.warn({ reason: 'connection refused' }, 'Redis error', 'RateLimits');
    // eslint-disable-next-line no-control-regex -- strips the terminal's colour codes
    const text = out.text().replace(/\x1b\[[0-9;]*m/g, '');
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: \[RateLimits\] Redis error\n\s+reason: "connection refused"\n$/);
  });

  it('puts Nest\'s module and route mapping lines at debug', () => {
    const out = capture();
    const info = new AppLogger(createRootLogger({ logLevel: 'info' }, { pretty: false, destination: out.stream }));
    info.log('Mapped {/api/games, GET} route', 'RouterExplorer');
    info.log('ScoringController {/api/play/sessions/:id/score}:', 'RoutesResolver');
    info.log('AppModule dependencies initialized', 'InstanceLoader');
    expect(out.text()).toBe('');
    const debug = new AppLogger(createRootLogger({ logLevel: 'debug' }, { pretty: false, destination: out.stream }));
    debug.log('Mapped {/api/games, GET} route', 'RouterExplorer');
    expect(JSON.parse(out.text().trim())).toMatchObject({ level: 20, msg: 'Mapped {/api/games, GET} route', context: 'RouterExplorer' });
  });

  it('never writes a password, token, cookie or authorization passed by hand', () => {
    const out = capture();
    const logger = createRootLogger({ logLevel: 'info' }, { pretty: false, destination: out.stream });
    logger.info({ body: { password: 'hunter22', token: 'tok-123' }, cookie: 'auth_session=abc', authorization: 'Bearer svc_live_x' }, 'payload');
    for (const secret of ['hunter22', 'tok-123', 'auth_session=abc', 'svc_live_x']) expect(out.text()).not.toContain(secret);
  });
});
