import { InvalidSignatureError } from './payments.errors';
import { signSandboxEvent, verifySandboxSignature } from './sandbox-signature';

const SECRET = 'a-sandbox-signing-secret';
const BODY = '{"id":"evt_1","type":"payment.succeeded","purchaseId":"p","created":1796600000}';
const NOW = 1_796_600_000;

function verify(header: string | undefined, body = BODY, nowSeconds = NOW): void {
  verifySandboxSignature(Buffer.from(body), header, SECRET, nowSeconds * 1000);
}

describe('sandbox signatures', () => {
  it('signs "<t>.<raw body>" with HMAC-SHA256 and verifies its own signature', () => {
    const header = signSandboxEvent(SECRET, BODY, NOW);
    expect(header).toMatch(/^t=1796600000,v1=[0-9a-f]{64}$/);
    expect(() => verify(header)).not.toThrow();
  });

  it('accepts timestamps up to exactly 5 minutes away either way, and no further', () => {
    for (const offset of [-300, -1, 0, 1, 300]) expect(() => verify(signSandboxEvent(SECRET, BODY, NOW + offset))).not.toThrow();
    for (const offset of [-301, 301, -86400]) expect(() => verify(signSandboxEvent(SECRET, BODY, NOW + offset))).toThrow(InvalidSignatureError);
  });

  it('reads hex in either case, spaces after commas, several v1 of which one matches', () => {
    const header = signSandboxEvent(SECRET, BODY, NOW);
    const [t, v1] = header.split(',');
    expect(() => verify(`${t},${v1!.toUpperCase().replace('V1=', 'v1=')}`)).not.toThrow();
    expect(() => verify(`${t}, ${v1}`)).not.toThrow();
    expect(() => verify(`${t}, v1=${'ab'.repeat(32)}, ${v1}, v0=whatever`)).not.toThrow();
    expect(() => verify(`${v1},${t}`)).not.toThrow();
  });

  it.each([
    ['a missing header', undefined],
    ['an empty header', ''],
    ['no timestamp', 'v1=' + 'a'.repeat(64)],
    ['no v1', `t=${NOW}`],
    ['a wrong signature', `t=${NOW},v1=${'0'.repeat(64)}`],
    ['a malformed timestamp', `t=17966e5,v1=${'0'.repeat(64)}`],
    ['two timestamps', `t=${NOW},t=${NOW},v1=${'0'.repeat(64)}`],
    ['a pair without =', `t=${NOW},v1`],
  ])('refuses %s', (_name, header) => {
    expect(() => verify(header)).toThrow(InvalidSignatureError);
  });

  it('refuses a signature over another body or with another key', () => {
    expect(() => verify(signSandboxEvent(SECRET, BODY, NOW), BODY.replace('succeeded', 'refunded'))).toThrow(InvalidSignatureError);
    expect(() => verify(signSandboxEvent('another-secret-entirely', BODY, NOW))).toThrow(InvalidSignatureError);
  });
});
