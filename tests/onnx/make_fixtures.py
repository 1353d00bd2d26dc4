#!/usr/bin/python3
"""Builds the ONNX test fixtures with Debian's python3-onnx, the way torch.onnx.export lays graphs out.

Usage: make_fixtures.py OUTPUT_DIR

Models (weights are zeros; large initializers point at external data that is not written, since
only shapes matter to dse):
  resnet50.onnx          opset 13, Conv + BatchNormalization + Relu, Gemm head, symbolic batch 'N'
  mobilenet_v3_large.onnx opset 13, squeeze-excite (HardSigmoid), HardSwish, Clip-free
  bert_base.onnx         opset 13, embeddings by Gather, LayerNorm decomposed into ReduceMean/Sub/Pow/
                         Sqrt/Div/Mul/Add, GELU by Erf, attention heads split with Shape/Gather/
                         Unsqueeze/Concat/Reshape chains, symbolic batch and sequence
  bert_base_opset17.onnx the same with LayerNormalization
  bad_truncated.onnx, bad_unsupported_op.onnx, bad_not_onnx.onnx, bad_symbolic.onnx
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out_dir = sys.argv[1]
os.makedirs(out_dir, exist_ok=True)


class Builder:
    def __init__(self, name, opset):
        self.name, self.opset = name, opset
        self.nodes, self.inits, self.inputs, self.outputs = [], [], [], []
        self.count = 0

    def fresh(self, hint):
        self.count += 1
        return f"{hint}_{self.count}"

    def weight(self, name, shape, dtype=TensorProto.FLOAT):
        t = TensorProto()
        t.name, t.data_type = name, dtype
        t.dims.extend(shape)
        n = int(np.prod(shape)) if shape else 1
        if n <= 4096:
            np_type = {TensorProto.FLOAT: np.float32, TensorProto.INT64: np.int64}[dtype]
            t.raw_data = np.zeros(n, dtype=np_type).tobytes()
        else:  # external data that is never written: dse reads shapes only
            t.data_location = TensorProto.EXTERNAL
            for key, value in (("location", "weights.bin"), ("offset", "0"), ("length", str(n * 4))):
                entry = t.external_data.add()
                entry.key, entry.value = key, value
        self.inits.append(t)
        return name

    def const(self, values, dtype=np.int64):
        name = self.fresh("const")
        self.nodes.append(helper.make_node("Constant", [], [name], name=name,
                                           value=numpy_helper.from_array(np.array(values, dtype=dtype))))
        return name

    def op(self, op_type, inputs, hint=None, outputs=1, **attrs):
        names = [self.fresh(hint or op_type) for _ in range(outputs)]
        self.nodes.append(helper.make_node(op_type, inputs, names, name=self.fresh(op_type), **attrs))
        return names[0] if outputs == 1 else names

    def save(self, path):
        graph = helper.make_graph(self.nodes, self.name, self.inputs, self.outputs, self.inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", self.opset)])
        onnx.save_model(model, path)


def conv_bn(b, x, cin, cout, k, s, name, groups=1, act="Relu"):
    w = b.weight(f"{name}.weight", [cout, cin // groups, k, k])
    y = b.op("Conv", [x, w], kernel_shape=[k, k], strides=[s, s], pads=[(k - 1) // 2] * 4, group=groups)
    bn = [b.weight(f"{name}.bn.{p}", [cout]) for p in ("weight", "bias", "running_mean", "running_var")]
    y = b.op("BatchNormalization", [y] + bn, epsilon=1e-5)
    return b.op(act, [y]) if act else y


def resnet50():
    b = Builder("resnet50", 13)
    b.inputs.append(helper.make_tensor_value_info("input", TensorProto.FLOAT, ["N", 3, 224, 224]))
    x = conv_bn(b, "input", 3, 64, 7, 2, "conv1")
    x = b.op("MaxPool", [x], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    cin = 64
    for stage, (width, blocks) in enumerate(zip([64, 128, 256, 512], [3, 4, 6, 3])):
        for i in range(blocks):
            s = 2 if stage > 0 and i == 0 else 1
            n = f"layer{stage + 1}.{i}"
            y = conv_bn(b, x, cin, width, 1, 1, n + ".conv1")
            y = conv_bn(b, y, width, width, 3, s, n + ".conv2")
            y = conv_bn(b, y, width, 4 * width, 1, 1, n + ".conv3", act=None)
            short = conv_bn(b, x, cin, 4 * width, 1, s, n + ".downsample", act=None) if (s != 1 or cin != 4 * width) else x
            x = b.op("Relu", [b.op("Add", [y, short])])
            cin = 4 * width
    x = b.op("Flatten", [b.op("GlobalAveragePool", [x])], axis=1)
    x = b.op("Gemm", [x, b.weight("fc.weight", [1000, 2048]), b.weight("fc.bias", [1000])], transB=1)
    b.outputs.append(helper.make_tensor_value_info(x, TensorProto.FLOAT, ["N", 1000]))
    b.save(os.path.join(out_dir, "resnet50.onnx"))


def make_divisible(v):
    r = max(8, int(v + 4) // 8 * 8)
    return r + 8 if r < 0.9 * v else r


def mobilenet_v3_large():
    b = Builder("mobilenet_v3_large", 13)
    b.inputs.append(helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, 224, 224]))
    x = conv_bn(b, "input", 3, 16, 3, 2, "conv1", act="HardSwish")
    cin = 16
    cfg = [(3, 16, 16, 0, "Relu", 1), (3, 64, 24, 0, "Relu", 2), (3, 72, 24, 0, "Relu", 1), (5, 72, 40, 1, "Relu", 2),
           (5, 120, 40, 1, "Relu", 1), (5, 120, 40, 1, "Relu", 1), (3, 240, 80, 0, "HardSwish", 2),
           (3, 200, 80, 0, "HardSwish", 1), (3, 184, 80, 0, "HardSwish", 1), (3, 184, 80, 0, "HardSwish", 1),
           (3, 480, 112, 1, "HardSwish", 1), (3, 672, 112, 1, "HardSwish", 1), (5, 672, 160, 1, "HardSwish", 2),
           (5, 960, 160, 1, "HardSwish", 1), (5, 960, 160, 1, "HardSwish", 1)]
    for i, (k, exp, out, se, act, s) in enumerate(cfg):
        n = f"block{i}"
        y = x
        if exp != cin:
            y = conv_bn(b, y, cin, exp, 1, 1, n + ".expand", act=act)
        y = conv_bn(b, y, exp, exp, k, s, n + ".dw", groups=exp, act=act)
        if se:
            sq = make_divisible(exp // 4)
            p = b.op("GlobalAveragePool", [y])
            p = b.op("Conv", [p, b.weight(n + ".se.fc1.w", [sq, exp, 1, 1]), b.weight(n + ".se.fc1.b", [sq])], kernel_shape=[1, 1])
            p = b.op("Relu", [p])
            p = b.op("Conv", [p, b.weight(n + ".se.fc2.w", [exp, sq, 1, 1]), b.weight(n + ".se.fc2.b", [exp])], kernel_shape=[1, 1])
            p = b.op("HardSigmoid", [p], alpha=1.0 / 6, beta=0.5)
            y = b.op("Mul", [p, y])
        y = conv_bn(b, y, exp, out, 1, 1, n + ".project", act=None)
        x = b.op("Add", [x, y]) if s == 1 and cin == out else y
        cin = out
    x = conv_bn(b, x, 160, 960, 1, 1, "conv_last", act="HardSwish")
    x = b.op("Flatten", [b.op("GlobalAveragePool", [x])], axis=1)
    x = b.op("HardSwish", [b.op("Gemm", [x, b.weight("fc1.w", [1280, 960]), b.weight("fc1.b", [1280])], transB=1)])
    x = b.op("Gemm", [x, b.weight("fc2.w", [1000, 1280]), b.weight("fc2.b", [1000])], transB=1)
    b.outputs.append(helper.make_tensor_value_info(x, TensorProto.FLOAT, [1, 1000]))
    b.save(os.path.join(out_dir, "mobilenet_v3_large.onnx"))


def layer_norm(b, x, d, name, opset):
    g, beta = b.weight(name + ".weight", [d]), b.weight(name + ".bias", [d])
    if opset >= 17:
        return b.op("LayerNormalization", [x, g, beta], axis=-1, epsilon=1e-12)
    mean = b.op("ReduceMean", [x], axes=[-1])
    centred = b.op("Sub", [x, mean])
    var = b.op("ReduceMean", [b.op("Pow", [centred, b.const(2.0, np.float32)])], axes=[-1])
    y = b.op("Div", [centred, b.op("Sqrt", [b.op("Add", [var, b.const(1e-12, np.float32)])])])
    return b.op("Add", [b.op("Mul", [y, g]), beta])


def linear(b, x, din, dout, name):
    return b.op("Add", [b.weight(name + ".bias", [dout]), b.op("MatMul", [x, b.weight(name + ".weight", [din, dout])])])


def dim(b, x, i):
    return b.op("Unsqueeze", [b.op("Gather", [b.op("Shape", [x]), b.const(i)], axis=0), b.const([0])])


def split_heads(b, x, heads, dh):
    shape = b.op("Concat", [dim(b, x, 0), dim(b, x, 1), b.const([heads]), b.const([dh])], axis=0)
    return b.op("Transpose", [b.op("Reshape", [x, shape])], perm=[0, 2, 1, 3])


def bert_base(opset):
    d, heads, dh, layers = 768, 12, 64, 12
    b = Builder("bert_base", opset)
    for name in ("input_ids", "token_type_ids"):
        b.inputs.append(helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "sequence"]))
    b.inputs.append(helper.make_tensor_value_info("attention_mask", TensorProto.FLOAT, ["batch", 1, 1, "sequence"]))
    words = b.op("Gather", [b.weight("embeddings.word_embeddings.weight", [30522, d]), "input_ids"])
    types = b.op("Gather", [b.weight("embeddings.token_type_embeddings.weight", [2, d]), "token_type_ids"])
    # position_ids: a buffer sliced to the sequence length, as exported from Hugging Face
    seq = dim(b, "input_ids", 1)
    pos_ids = b.op("Slice", [b.weight("embeddings.position_ids", [1, 512], TensorProto.INT64), b.const([0]), seq, b.const([1])])
    pos = b.op("Gather", [b.weight("embeddings.position_embeddings.weight", [512, d]), pos_ids])
    x = layer_norm(b, b.op("Add", [b.op("Add", [words, types]), pos]), d, "embeddings.LayerNorm", opset)
    for i in range(layers):
        n = f"encoder.layer.{i}"
        q = split_heads(b, linear(b, x, d, d, n + ".query"), heads, dh)
        k = b.op("Transpose", [b.op("Reshape", [linear(b, x, d, d, n + ".key"), b.op("Concat", [dim(b, x, 0), dim(b, x, 1), b.const([heads]), b.const([dh])], axis=0)])], perm=[0, 2, 3, 1])
        v = split_heads(b, linear(b, x, d, d, n + ".value"), heads, dh)
        s = b.op("Div", [b.op("MatMul", [q, k]), b.const(8.0, np.float32)])
        p = b.op("Softmax", [b.op("Add", [s, "attention_mask"])], axis=-1)
        c = b.op("Transpose", [b.op("MatMul", [p, v])], perm=[0, 2, 1, 3])
        c = b.op("Reshape", [c, b.op("Concat", [dim(b, x, 0), dim(b, x, 1), b.const([d])], axis=0)])
        x = layer_norm(b, b.op("Add", [linear(b, c, d, d, n + ".attention.output"), x]), d, n + ".ln1", opset)
        h = linear(b, x, d, 4 * d, n + ".intermediate")
        h = b.op("Mul", [b.op("Mul", [h, b.op("Add", [b.op("Erf", [b.op("Div", [h, b.const(1.4142135, np.float32)])]), b.const(1.0, np.float32)])]), b.const(0.5, np.float32)])
        x = layer_norm(b, b.op("Add", [linear(b, h, 4 * d, d, n + ".output"), x]), d, n + ".ln2", opset)
    first = b.op("Gather", [x, b.const(0)], axis=1)
    pooled = b.op("Tanh", [b.op("Gemm", [first, b.weight("pooler.weight", [d, d]), b.weight("pooler.bias", [d])], transB=1)])
    b.outputs.append(helper.make_tensor_value_info(x, TensorProto.FLOAT, ["batch", "sequence", d]))
    b.outputs.append(helper.make_tensor_value_info(pooled, TensorProto.FLOAT, ["batch", d]))
    b.save(os.path.join(out_dir, "bert_base.onnx" if opset < 17 else "bert_base_opset17.onnx"))


def misc_elementwise():
    """Elementwise operators without a dse kind of their own, as exported models use them for masks,
    positional encodings and activations."""
    b = Builder("misc", 13)
    b.inputs.append(helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 8]))
    a = b.op("Abs", ["x"])
    l = b.op("Log", [a])
    s = b.op("Sin", [l])
    e = b.op("Equal", ["x", b.const(np.zeros([2, 8], np.float32), np.float32)])
    n = b.op("Not", [e])
    w = b.op("Where", [n, s, "x"])
    p = b.op("PRelu", [w, b.weight("slope", [8])])
    y = b.op("Sum", [p, s, a])
    b.outputs.append(helper.make_tensor_value_info(y, TensorProto.FLOAT, [2, 8]))
    b.save(os.path.join(out_dir, "misc_elementwise.onnx"))


def conv_transpose():
    """A decoder's upsampling: ConvTranspose 3x3, stride 2, pad 1, output_padding 1 doubles 7x7 to
    14x14 ((7 - 1) * 2 - 2 + 2 + 1 + 1 = 14; without output_padding it would be 13x13). dse takes
    one output_padding for both axes, so the file with [1, 0] must be refused."""
    for name, extra, width in (("conv_transpose", [1, 1], 14), ("bad_conv_transpose_output_padding", [1, 0], 13)):
        b = Builder(name, 13)
        b.inputs.append(helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16, 7, 7]))
        y = b.op("ConvTranspose", ["x", b.weight("w", [16, 8, 3, 3])], kernel_shape=[3, 3], strides=[2, 2],
                 pads=[1, 1, 1, 1], output_padding=extra)
        b.outputs.append(helper.make_tensor_value_info(y, TensorProto.FLOAT, [1, 8, 14, width]))
        b.save(os.path.join(out_dir, name + ".onnx"))


def bad_files():
    good = open(os.path.join(out_dir, "resnet50.onnx"), "rb").read()
    open(os.path.join(out_dir, "bad_truncated.onnx"), "wb").write(good[: len(good) // 3])
    open(os.path.join(out_dir, "bad_not_onnx.onnx"), "wb").write(b"name: not an onnx file\n" * 10)
    b = Builder("unsupported", 13)
    b.inputs.append(helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4]))
    y = b.op("Einsum", ["x", "x"], equation="ij,ij->i")
    b.outputs.append(helper.make_tensor_value_info(y, TensorProto.FLOAT, [1]))
    b.save(os.path.join(out_dir, "bad_unsupported_op.onnx"))
    b = Builder("symbolic", 13)
    b.inputs.append(helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 4]))
    y = b.op("Relu", ["x"])
    b.outputs.append(helper.make_tensor_value_info(y, TensorProto.FLOAT, ["batch", 4]))
    b.save(os.path.join(out_dir, "bad_symbolic.onnx"))
    b = Builder("old", 7)
    b.inputs.append(helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4]))
    y = b.op("Relu", ["x"])
    b.outputs.append(helper.make_tensor_value_info(y, TensorProto.FLOAT, [1, 4]))
    b.save(os.path.join(out_dir, "bad_opset7.onnx"))


resnet50()
mobilenet_v3_large()
bert_base(13)
bert_base(17)
misc_elementwise()
conv_transpose()
bad_files()
print("fixtures written to", out_dir)
