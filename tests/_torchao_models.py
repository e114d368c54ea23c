"""torchao's PT2E test models, rebuilt: `TestHelperModules` of torch.testing._internal.common_quantization
(importing it needs numpy, which the test environment does not install). Same layers, same forward."""

import torch


class ConvLinearWPermute(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3)
        self.linear1 = torch.nn.Linear(8, 8)

    def forward(self, x):
        return self.linear1(torch.permute(self.conv(x), (0, 2, 3, 1)))


class ConvWithBNRelu(torch.nn.Module):
    def __init__(self, relu: bool, bn: bool = True, bias: bool = True) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 3, 3, bias=bias)
        self.bn = torch.nn.BatchNorm2d(3) if bn else torch.nn.Identity()
        self.relu = torch.nn.ReLU() if relu else torch.nn.Identity()

    def forward(self, x):
        return self.relu(self.bn(self.conv(x)))


class ConvMaxPool2d(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(2, 2, 1)
        self.pool = torch.nn.MaxPool2d(1, 1)

    def forward(self, x):
        return self.pool(self.conv(x))


class Conv2dWithCat(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv1 = torch.nn.Conv2d(3, 3, 3)
        self.conv2 = torch.nn.Conv2d(3, 3, 3)

    def forward(self, x, y):
        return torch.cat([self.conv1(x), self.conv2(y)], dim=1)


class ThreeAdd(torch.nn.Module):
    def forward(self, x1, x2, x3, x4):
        return (x1 + x2) + (x3 + x4)


class EmbeddingModule(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.emb = torch.nn.Embedding(num_embeddings=10, embedding_dim=12)

    def forward(self, indices):
        return self.emb(indices)


class EmbeddingConvLinearModule(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.emb = torch.nn.Embedding(num_embeddings=10, embedding_dim=8)
        self.conv = torch.nn.Conv2d(8, 16, (1, 3))
        self.linear = torch.nn.Linear(16, 8)

    def forward(self, indices):
        embeddings = torch.permute(torch.unsqueeze(self.emb(indices), dim=0), (0, 3, 1, 2))
        conv_out = torch.squeeze(torch.permute(self.conv(embeddings), (0, 2, 3, 1)), dim=0)
        return self.linear(conv_out)


class TwoLinearModule(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.linear1 = torch.nn.Linear(8, 16, bias=False)
        self.linear2 = torch.nn.Linear(16, 8)

    def forward(self, x):
        return self.linear2(self.linear1(x))


class SingleConv2dModule(torch.nn.Module):
    """test_x86inductor_quantizer.py's TestHelperModules.SingleConv2dModule (test_qat_conv2d uses with_bn=True)."""

    def __init__(self, with_bn: bool = False) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 6, (2, 2), stride=(1, 1), padding=(1, 1))
        self.bn = torch.nn.BatchNorm2d(6)
        self.with_bn = with_bn

    def forward(self, x):
        x = self.conv(x)
        if self.with_bn:
            x = self.bn(x)
        return x
