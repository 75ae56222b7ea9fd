import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTurnTaker } from '../../src/io/event-loop-turn.js';

describe('turns of the event loop in a long synchronous run', () => {
  it('lets what waits on the loop run once the slice has passed, and costs nothing before', async () => {
    const events: string[] = [];
    setImmediate(() => events.push('immediate'));
    const due = createTurnTaker(0);
    const turn = due();
    assert.ok(turn !== undefined);
    events.push('asked');
    await turn;
    events.push('resumed');
    assert.deepEqual(events, ['asked', 'immediate', 'resumed']);

    const notYet = createTurnTaker(60_000);
    assert.equal(notYet(), undefined);
  });
});
