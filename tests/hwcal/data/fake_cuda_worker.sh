#!/bin/sh
# A stand-in for dse-measure-cuda (hwcal/cuda/measure_worker.cu) that speaks its protocol without a
# GPU, so the cuda backend's process handling is tested in CI: --info names an H100; a request's
# latency is its m in microseconds; op=gelu fails, op=tanh never answers, op=mul crashes.
if [ "$1" = "--info" ]; then
  printf 'name=NVIDIA H100 80GB HBM3\ndriver=580.65\ncuda=13.0\n'
  exit 0
fi
read -r request
case "$request" in
  *"op=gelu"*) printf 'status=failed\nmessage=CUBLAS_STATUS_NOT_SUPPORTED (planted)\n' ;;
  *"op=tanh"*) exec sleep 60 ;;
  *"op=mul"*) kill -SEGV $$ ;;
  *)
    m=$(printf '%s\n' "$request" | tr ' ' '\n' | sed -n 's/^m=//p' | head -1)
    printf 'status=ok\nlatency_ms=0.%03d\nrepeats_ms=0.%03d,0.%03d\ntimed_s=0.05\n' "$m" "$m" "$m" ;;
esac
