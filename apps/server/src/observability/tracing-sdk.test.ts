import { randomBytes } from 'node:crypto';
import { ROOT_CONTEXT, SpanKind, TraceFlags, trace } from '@opentelemetry/api';
import { tracing } from '@opentelemetry/sdk-node';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TRACES_SAMPLE_RATIO, defaultSampler } from './tracing-sdk.ts';

/** How many of `count` new root traces `sampler` records. */
function sampledRoots(sampler: tracing.Sampler, count: number): number {
  let sampled = 0;
  for (let index = 0; index < count; index++) {
    const traceId = randomBytes(16).toString('hex');
    const { decision } = sampler.shouldSample(
      ROOT_CONTEXT,
      traceId,
      'GET /',
      SpanKind.SERVER,
      {},
      [],
    );
    if (decision === tracing.SamplingDecision.RECORD_AND_SAMPLED) sampled += 1;
  }
  return sampled;
}

/** A context whose span is a caller's, sampled or not (its `traceparent` flags). */
function callerContext(sampled: boolean) {
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: randomBytes(16).toString('hex'),
    spanId: randomBytes(8).toString('hex'),
    traceFlags: sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
    isRemote: true,
  });
}

describe('defaultSampler', () => {
  it('traces one request in a hundred while OTEL_TRACES_SAMPLER is unset', () => {
    const sampler = defaultSampler({});
    expect(sampler).toBeDefined();
    expect(DEFAULT_TRACES_SAMPLE_RATIO).toBe(0.01);
    // 20,000 roots at 1%: 200 expected, standard deviation 14; the bounds are 7 of them away.
    const sampled = sampledRoots(sampler!, 20_000);
    expect(sampled).toBeGreaterThan(100);
    expect(sampled).toBeLessThan(300);
  });

  it('follows the caller’s decision whatever the ratio', () => {
    const sampler = defaultSampler({ OTEL_TRACES_SAMPLER_ARG: '0' })!;
    const decide = (sampled: boolean) =>
      sampler.shouldSample(
        callerContext(sampled),
        randomBytes(16).toString('hex'),
        'GET /',
        SpanKind.SERVER,
        {},
        [],
      ).decision;
    expect(decide(true)).toBe(tracing.SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide(false)).toBe(tracing.SamplingDecision.NOT_RECORD);
  });

  it('takes its ratio from OTEL_TRACES_SAMPLER_ARG, and the default for a value out of range', () => {
    expect(sampledRoots(defaultSampler({ OTEL_TRACES_SAMPLER_ARG: '0' })!, 2_000)).toBe(0);
    expect(sampledRoots(defaultSampler({ OTEL_TRACES_SAMPLER_ARG: '1' })!, 2_000)).toBe(2_000);
    const half = sampledRoots(defaultSampler({ OTEL_TRACES_SAMPLER_ARG: ' 0.5 ' })!, 2_000);
    expect(half).toBeGreaterThan(800);
    expect(half).toBeLessThan(1_200);
    for (const wrong of ['2', '-1', 'half', '']) {
      expect(sampledRoots(defaultSampler({ OTEL_TRACES_SAMPLER_ARG: wrong })!, 2_000)).toBeLessThan(
        100,
      );
    }
  });

  it('leaves the choice to the SDK when OTEL_TRACES_SAMPLER is set', () => {
    expect(defaultSampler({ OTEL_TRACES_SAMPLER: 'always_on' })).toBeUndefined();
    expect(defaultSampler({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio' })).toBeUndefined();
  });
});
