import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { callsBetween, storageCall } from './count-storage-calls.mjs';

describe('storageCall', () => {
  it('names the service and operation an X-Amz-Target header names', () => {
    expect(storageCall('DynamoDB_20120810.GetItem')).toBe('dynamodb GetItem');
    expect(storageCall('DynamoDB_20120810.BatchGetItem')).toBe('dynamodb BatchGetItem');
    expect(storageCall('AmazonSQS.SendMessage')).toBe('sqs SendMessage');
    expect(storageCall('AWSEvents.PutEvents')).toBe('AWSEvents PutEvents');
  });

  it('counts nothing for a request that names no operation', () => {
    expect(storageCall(undefined)).toBeUndefined();
    expect(storageCall('')).toBeUndefined();
    expect(storageCall('GetItem')).toBeUndefined();
    expect(storageCall('DynamoDB_20120810.')).toBeUndefined();
    expect(storageCall(['DynamoDB_20120810.GetItem'])).toBeUndefined();
  });
});

describe('callsBetween', () => {
  it('gives the calls made between two readings, leaving out those not made', () => {
    expect(
      callsBetween(
        { 'dynamodb GetItem': 3, 'dynamodb Query': 5 },
        { 'dynamodb GetItem': 3, 'dynamodb Query': 25, 'sqs SendMessage': 1 },
      ),
    ).toEqual({ 'dynamodb Query': 20, 'sqs SendMessage': 1 });
  });
});

describe('the preload', () => {
  it('counts the AWS calls a process makes and answers them on its socket', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'count-storage-calls-'));
    const socketPath = join(dir, 'calls.sock');
    const storage = createServer((req, res) => req.resume().on('end', () => res.end('{}')));
    await new Promise<void>((resolve) => storage.listen(0, '127.0.0.1', resolve));
    const { port } = storage.address() as AddressInfo;
    // Two GetItem and a Query, and a request naming no operation.
    const script = `
      import { request } from 'node:http';
      const send = (target) => new Promise((resolve) => {
        const headers = target ? { 'X-Amz-Target': target } : {};
        request({ port: ${port}, method: 'POST', headers }, (res) => res.resume().on('end', resolve))
          .end('{}');
      });
      for (const target of ['DynamoDB_20120810.GetItem', 'DynamoDB_20120810.GetItem',
        'DynamoDB_20120810.Query', undefined]) await send(target);
      console.log('sent');
      setInterval(() => {}, 1000);`;
    const child = spawn(
      process.execPath,
      [
        '--import',
        pathToFileURL(join(__dirname, 'count-storage-calls.mjs')).href,
        '--input-type=module',
        '-e',
        script,
      ],
      {
        env: { ...process.env, STORAGE_CALLS_SOCKET: socketPath },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      await new Promise((resolve) => child.stdout.once('data', resolve));
      const counts = await new Promise<string>((resolve, reject) => {
        get({ socketPath, path: '/' }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve(body));
        }).on('error', reject);
      });
      expect(JSON.parse(counts)).toEqual({ 'dynamodb GetItem': 2, 'dynamodb Query': 1 });
    } finally {
      child.kill('SIGKILL');
      storage.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
