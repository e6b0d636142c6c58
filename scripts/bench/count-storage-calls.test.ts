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
