# SPDX-License-Identifier: Apache-2.0
"""tools/room_sizes.py: which blocks it takes for functions, and their lengths, on made-up sources."""
import importlib.util
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("room_sizes", ROOT / "tools/room_sizes.py")
rooms = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rooms)

SOURCE = """namespace a {
/// A comment's braces { do not count }.
template <class T>
__global__ void __launch_bounds__(128)
kernel(T x) {
  if (x) {
    char const* s = "}";
  }
}
struct S {
  int f() const { return '{'; }
  int v[2] = {1, 2};
};
constexpr int table[] = {1, 2};
decltype(auto) g(int y) noexcept {
  auto l = [](int z) { return z; };
  return l(y);
}
}  // namespace a
"""


class Functions(unittest.TestCase):
    def test_names_and_lines(self):
        self.assertEqual(rooms.functions(SOURCE), [("kernel", 3, 9), ("f", 11, 11), ("g", 15, 18)])

    def test_blanking_keeps_lines(self):
        self.assertEqual(rooms.blank_code(SOURCE).count("\n"), SOURCE.count("\n"))


class Tree(unittest.TestCase):
    def test_bounds(self):
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            (root / "kernels").mkdir()
            (root / "include/generated").mkdir(parents=True)
            long_body = "void h() {\n" + "  x();\n" * rooms.FUNCTION_LIMIT + "}\n"
            (root / "kernels/long.cuh").write_text(long_body)
            (root / "include/generated/big.hpp").write_text("\n" * (rooms.FILE_LIMIT + 1))
            self.assertEqual(rooms.main(["room_sizes.py", str(root)]), 1)  # h: 122 lines
            (root / "kernels/long.cuh").write_text("void h() {}\n")
            self.assertEqual(rooms.main(["room_sizes.py", str(root)]), 0)  # generated files aside
            (root / "kernels/big.hpp").write_text("\n" * (rooms.FILE_LIMIT + 1))
            self.assertEqual(rooms.main(["room_sizes.py", str(root)]), 1)


if __name__ == "__main__":
    unittest.main()
