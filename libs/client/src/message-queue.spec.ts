import { MessageQueue } from './message-queue.js';

describe('MessageQueue', () => {
  it('hands items to a waiting reader, then queued ones in order, then the end', async () => {
    const queue = new MessageQueue<number>();
    const waiting = queue.next();
    queue.push(1);
    expect(await waiting).toEqual({ done: false, value: 1 });
    queue.push(2);
    queue.push(3);
    queue.end();
    queue.push(4);
    expect([await queue.next(), await queue.next(), await queue.next()]).toEqual([
      { done: false, value: 2 },
      { done: false, value: 3 },
      { done: true, value: undefined },
    ]);
  });

  it('ends a waiting reader, and gives up what it holds at once', async () => {
    const queue = new MessageQueue<number>();
    queue.push(1);
    queue.push(2);
    expect(queue.takeAll()).toEqual([1, 2]);
    const waiting = queue.next();
    queue.end();
    expect(await waiting).toEqual({ done: true, value: undefined });
  });
});
