import { generate } from 'selfsigned';

export interface TestPki {
  /** The private CA, as NODE_EXTRA_CA_CERTS would name it. */
  caCert: string;
  key: string;
  cert: string;
}

/** A private CA and a certificate it signed for 127.0.0.1 and localhost. */
export async function makePki(): Promise<TestPki> {
  const ca = await generate([{ name: 'commonName', value: 'bkci-action test CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const server = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
        ],
      },
    ],
  });
  return { caCert: ca.cert, key: server.private, cert: server.cert };
}
