import { NORMALIZER_PRESENCE_INTERVAL_MS } from '@llm-stream/contract';
import { NormalizerBuilds } from './normalizer-builds.js';

const INTERVAL = NORMALIZER_PRESENCE_INTERVAL_MS;

describe('NormalizerBuilds', () => {
  it('lets the session serve once a replica of the same build is heard, or once none could be heard', () => {
    const builds = new NormalizerBuilds(3, 0);
    expect(builds.sessionServes(0)).toBe(false);
    expect(builds.heard('nz-a', 3, 10)).toStrictEqual({ otherBuild: false, isNew: true });
    expect(builds.sessionServes(10)).toBe(true);
    expect(new NormalizerBuilds(3, 0).sessionServes(2 * INTERVAL)).toBe(true);
  });

  it('serves from the log while any replica heard in the last three intervals runs another build', () => {
    const builds = new NormalizerBuilds(3, 0);
    builds.heard('nz-a', 3, 0);
    expect(builds.heard('nz-b', 4, 0)).toStrictEqual({ otherBuild: true, isNew: true });
    expect(builds.heard('nz-b', 4, 1)).toStrictEqual({ otherBuild: true, isNew: false });
    expect(builds.sessionServes(INTERVAL)).toBe(false);
    builds.heard('nz-a', 3, 3 * INTERVAL);
    expect(builds.sessionServes(3 * INTERVAL)).toBe(false);
    // nz-b went away (a rolling upgrade finished): forgotten after three silent intervals.
    expect(builds.sessionServes(3 * INTERVAL + 2)).toBe(true);
  });

  it('takes a replica heard again after three silent intervals for a new one, whether or not it was pruned', () => {
    const builds = new NormalizerBuilds(3, 0);
    builds.heard('nz-b', 4, 0);
    expect(builds.heard('nz-b', 4, 3 * INTERVAL + 1)).toStrictEqual({ otherBuild: true, isNew: true });
    expect(builds.heard('nz-b', 4, 4 * INTERVAL)).toStrictEqual({ otherBuild: true, isNew: false });
  });
});
